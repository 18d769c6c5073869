#include "edge/status/status_http.h"

#include "edge/app.h"
#include "edge/platform/code_error.h"
#include "edge/platform/server_failure.h"

namespace edge::status {
namespace json = core::json;

int status_http_status(std::string_view code) {
  if (code == "invalid_json" || code == "invalid_body") return 400;
  if (code == "unauthorized") return 401;
  if (code == "forbidden" || code == "invalid_csrf_token") return 403;
  if (code == "not_found" || code.ends_with("_not_found")) return 404;
  if (code == "slug_taken" || code == "incident_resolved" || code == "invalid_incident_transition" ||
      code == "maintenance_not_scheduled" || code == "maintenance_not_in_progress")
    return 409;
  if (code == "rate_limited") return 429;
  if (code == "storage_error" || code == "internal") return 500;
  return 422;
}

Response status_ok(json::value body, int status) {
  Response r;
  r.status = status;
  r.body = core::to_json(body);
  return r;
}

Response status_error(int status, std::string_view code, std::string_view message) {
  return code_error(status, code, message);
}

Response status_error(const core::Error& e) {
  const int status = status_http_status(e.code);
  if (status >= 500) return status_error(status, e.code, server_failure_message(e));
  return status_error(status, e.code, e.message);
}

Response status_error_for_status(int status, std::string_view message) {
  return status_error(status, code_for_status(status), message);
}

Handler dashboard_route(App& app, std::string permission, CompanyHandler handler) {
  return [&app, permission = std::move(permission), handler = std::move(handler)](Request& req) -> Response {
    CompanyContext ctx;
    if (auto failure = authenticate_company(app, req, ctx)) {
      switch (failure->status) {
        case 401: {
          Response r = status_error(401, "unauthorized", failure->message);
          r.set_header("WWW-Authenticate", "Bearer");
          return r;
        }
        case 403:
          return status_error(403, "invalid_csrf_token", failure->message);
        case 404:
          return status_error(404, "company_not_found", failure->message);
        case 429: {
          Response r = status_error(
              429, "rate_limited",
              "rate limit exceeded; retry after " + std::to_string(failure->retry_after_seconds) + " s");
          r.set_header("Retry-After", std::to_string(failure->retry_after_seconds));
          return r;
        }
        default:
          return status_error(500, "storage_error", failure->message);
      }
    }
    if (!ctx.principal.allows(permission))
      return status_error(403, "forbidden", "access token lacks permission '" + permission + "'");
    return handler(req, ctx);
  };
}

}  // namespace edge::status
