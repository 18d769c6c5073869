#pragma once
// The restaurant API's request context and response format (docs/restaurant-api.md).
//
// Success: `{"data": <payload>}` (201 on create). Failure: `{"error": "<code>", "message": "<text>"}` with
// the status of restaurant_status(code). Authentication is the platform's (authenticate_company in
// edge/platform/company_auth.h) rendered in this format: 401 `unauthorized` (WWW-Authenticate: Bearer),
// 404 `company_not_found`, 429 `rate_limited` (Retry-After), 500 `storage_error`, then 403 `forbidden`
// when the token lacks the route's permission.

#include <functional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "edge/http/router.h"
#include "edge/platform/company_auth.h"

namespace edge::restaurant {

// The HTTP status of a restaurant error code: `invalid_json` / `invalid_body` 400; `forbidden`,
// `forbidden_branch` 403; `*_not_found` 404; `conflict`, `shift_already_open`, `shift_not_open`,
// `order_not_open`, `order_not_paid`, `invalid_version`, `idempotency_conflict`, `already_paid` 409;
// `storage_error` / `internal` 500; every other code (missing_field, invalid_field, invalid_amount,
// invalid_time_zone, ...) 422.
int restaurant_status(std::string_view code);

Response rest_ok(core::json::value data, int status = 200);
Response rest_error(int status, std::string_view code, std::string_view message);
// rest_error(restaurant_status(e.code), e.code, e.message).
Response rest_error(const core::Error& e);

// The dispatcher's errors (no route, wrong method, body too large, a handler that threw) in this format:
// 404 `not_found`, 405 `method_not_allowed`, 413 `payload_too_large`, 500 `internal`, other `error`.
Response rest_error_for_status(int status, std::string_view message);

// 403 `forbidden` naming the permission the token lacks.
Response rest_forbidden(std::string_view permission);
// 403 `forbidden_branch`: the token may not write to that branch.
Response rest_forbidden_branch(std::string_view branch_id);

// Wraps `handler` with the platform's token checks (answered in the restaurant format) and, when
// `permission` is non-empty, a company-wide check of that permission (403 `forbidden`).
Handler restaurant_route(App& app, std::string permission, CompanyHandler handler);

// Whether the principal may write to one branch (`restaurant.write` on it: restaurant.manage,
// restaurant.branch:<id>, owners and admins).
bool may_write_branch(const CompanyContext& ctx, std::string_view branch_id);
// Whether the principal may read one branch's data (`restaurant.view` on it).
bool may_view_branch(const CompanyContext& ctx, std::string_view branch_id);

}  // namespace edge::restaurant
