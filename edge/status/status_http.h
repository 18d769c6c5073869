#pragma once
// The status service's response format (docs/status-api.md; spec/DECISIONS.md, Status service).
//
// Success: the resource itself as JSON (the snapshot is a bare object too, so the dashboard API answers the
// same way; 201 on create, 204 on delete). Failure: `{"error": "<code>", "message": "<text>"}` with the
// status of status_http_status(code), for everything under {status_url}/api/v1/ (unknown paths, 405 and 413
// included; edge/app.cpp error_for_path).

#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "edge/http/router.h"
#include "edge/platform/company_auth.h"

namespace edge::status {

// `invalid_json` / `invalid_body` 400; `unauthorized` 401; `forbidden`, `invalid_csrf_token` 403;
// `*_not_found` 404; `slug_taken`, `incident_resolved`, `invalid_incident_transition`,
// `maintenance_not_scheduled`, `maintenance_not_in_progress` 409; `rate_limited` 429; `storage_error` /
// `internal` 500; every other code (missing_field, invalid_field, invalid_slug, invalid_url, the
// check-settings codes, ...) 422.
int status_http_status(std::string_view code);

Response status_ok(core::json::value body, int status = 200);
Response status_error(int status, std::string_view code, std::string_view message);
// status_error(status_http_status(e.code), e.code, e.message); server failures without their details.
Response status_error(const core::Error& e);
// The dispatcher's errors (no route, wrong method, body too large, a handler that threw): 404 `not_found`,
// 405 `method_not_allowed`, 413 `payload_too_large`, 500 `internal`, others `error`.
Response status_error_for_status(int status, std::string_view message);

// The dashboard's way in (authenticate_company: an access token, or the platform session of a member with
// its CSRF token on writes) answered in this format: 401 `unauthorized` (WWW-Authenticate: Bearer),
// 403 `invalid_csrf_token`, 404 `company_not_found`, 429 `rate_limited` (Retry-After), 500 `storage_error`;
// then 403 `forbidden` unless the principal holds `permission` (owners and admins always do;
// status.manage includes status.view).
Handler dashboard_route(App& app, std::string permission, CompanyHandler handler);

}  // namespace edge::status
