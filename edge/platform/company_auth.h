#pragma once
// Access-token authentication and permission checks for company-scoped routes
// (`/api/companies/{slug}/...` and the product paths that name a company).
//
// Order of checks, each answering in the platform envelope:
//   401 Authorization missing, not `Bearer <stk_...>`, unknown or revoked token (WWW-Authenticate: Bearer)
//   404 the slug names no company, or a company other than the token's (never reveals which)
//   429 the token's rate limit is spent (Retry-After)
//   403 the token lacks the route's permission

#include <functional>
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

// Wraps `handler` with the checks above. `permission` empty: any live token of the company.
// `target_param`: name of the path parameter that holds the resource the permission is scoped to.
Handler company_route(App& app, std::string permission, CompanyHandler handler,
                      std::string target_param = {});

// The 403 body for a missing permission.
Response missing_permission(std::string_view permission);

}  // namespace edge
