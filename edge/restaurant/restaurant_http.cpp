#include "edge/restaurant/restaurant_http.h"

#include "edge/app.h"
#include "edge/platform/code_error.h"
#include "edge/platform/server_failure.h"

namespace edge::restaurant {
namespace json = core::json;

int restaurant_status(std::string_view code) {
  if (code == "invalid_json" || code == "invalid_body") return 400;
  if (code == "forbidden" || code == "forbidden_branch") return 403;
  if (code == "not_found" || code.ends_with("_not_found")) return 404;
  if (code == "conflict" || code == "shift_already_open" || code == "order_not_open" ||
      code == "invalid_version" || code == "idempotency_conflict" || code == "order_not_paid" ||
      code == "already_paid" || code == "shift_not_open")
    return 409;
  if (code == "storage_error" || code == "internal") return 500;
  return 422;
}

Response rest_ok(json::value data, int status) {
  Response r;
  r.status = status;
  r.body = core::to_json(json::object{{"data", std::move(data)}});
  return r;
}

Response rest_error(int status, std::string_view code, std::string_view message) {
  return code_error(status, code, message);
}

Response rest_error(const core::Error& e) {
  const int status = restaurant_status(e.code);
  if (status >= 500) return rest_error(status, e.code, server_failure_message(e));
  return rest_error(status, e.code, e.message);
}

Response rest_error_for_status(int status, std::string_view message) {
  return rest_error(status, code_for_status(status), message);
}

Response rest_forbidden(std::string_view permission) {
  return rest_error(403, "forbidden", "access token lacks permission '" + std::string(permission) + "'");
}

Response rest_forbidden_branch(std::string_view branch_id) {
  return rest_error(403, "forbidden_branch",
                    "access token may not write to branch '" + std::string(branch_id) + "'");
}

Handler restaurant_route(App& app, std::string permission, CompanyHandler handler) {
  return [&app, permission = std::move(permission), handler = std::move(handler)](Request& req) -> Response {
    CompanyContext ctx;
    if (auto failure = authenticate_company(app, req, ctx)) {
      switch (failure->status) {
        case 401: {
          Response r = rest_error(401, "unauthorized", failure->message);
          r.set_header("WWW-Authenticate", "Bearer");
          return r;
        }
        case 404:
          return rest_error(404, "company_not_found", failure->message);
        case 429: {
          Response r = rest_error(
              429, "rate_limited",
              "rate limit exceeded; retry after " + std::to_string(failure->retry_after_seconds) + " s");
          r.set_header("Retry-After", std::to_string(failure->retry_after_seconds));
          return r;
        }
        default:
          return rest_error(500, "storage_error", failure->message);
      }
    }
    if (!permission.empty() && !ctx.principal.allows(permission)) return rest_forbidden(permission);
    return handler(req, ctx);
  };
}

bool may_write_branch(const CompanyContext& ctx, std::string_view branch_id) {
  return !branch_id.empty() && ctx.principal.allows("restaurant.write", branch_id);
}

bool may_view_branch(const CompanyContext& ctx, std::string_view branch_id) {
  return !branch_id.empty() && ctx.principal.allows("restaurant.view", branch_id);
}

}  // namespace edge::restaurant
