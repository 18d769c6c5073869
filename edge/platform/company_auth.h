#pragma once
// Access-token authentication and permission checks for company-scoped routes
// (`/api/companies/{slug}/...` and the product paths that name a company).
//
// Two credentials: an access token (`Authorization: Bearer stk_...`), or, for the dashboard, the platform
// session cookie of a member of the company (role and permissions of the membership; writes also need the
// session's CSRF token in `X-CSRF-Token`, else 403). Order of checks, each answering in the platform
// envelope:
//   401 Authorization missing, not `Bearer <stk_...>`, unknown or revoked token (WWW-Authenticate: Bearer)
//   404 the slug names no company, or a company other than the token's (never reveals which)
//   429 the token's rate limit is spent (Retry-After)
//   403 the token lacks the route's permission

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "edge/accounts/accounts.h"
#include "edge/http/router.h"

namespace edge {

struct App;

struct CompanyContext {
  Company company;
  Principal principal;
};

using CompanyHandler = std::function<Response(Request&, const CompanyContext&)>;

// Why authenticate_company refused a request: status 401, 404, 429 (retry_after_seconds set) or 500
// (storage error), with a human-readable message. Each product renders it in its own error format.
struct CompanyAuthFailure {
  int status = 401;
  std::string message;
  std::int64_t retry_after_seconds = 0;
};

// The first three checks above (token, company of the `slug` path parameter, rate limit; also notes the
// token's use). Fills `out` and returns nullopt when the request may go on to the permission check.
std::optional<CompanyAuthFailure> authenticate_company(App& app, const Request& req, CompanyContext& out);

// Wraps `handler` with the checks above. `permission` empty: any live token of the company.
// `target_param`: name of the path parameter that holds the resource the permission is scoped to.
Handler company_route(App& app, std::string permission, CompanyHandler handler,
                      std::string target_param = {});

// The 403 body for a missing permission.
Response missing_permission(std::string_view permission);

}  // namespace edge
