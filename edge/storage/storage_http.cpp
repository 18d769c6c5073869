#include "edge/storage/storage_http.h"

#include <memory>

#include "edge/app.h"
#include "edge/platform/envelope.h"

namespace edge::storage {

std::optional<Response> authorize(App& app, const Request& req, std::string_view permission,
                                  CompanyContext& out) {
  if (auto failure = authenticate_company(app, req, out)) {
    if (failure->status == 401) return envelope_unauthorized(failure->message);
    if (failure->status == 429) return envelope_rate_limited(failure->retry_after_seconds);
    return envelope_error(failure->status, failure->message);
  }
  if (!permission.empty() && !out.principal.allows(permission)) return missing_permission(permission);
  return std::nullopt;
}

void add_storage_forms(App& app, const std::string& method, std::string_view path, const Handler& handler,
                       const RouteOptions& options) {
  const std::string p(path);
  app.router.add(method, "/api/companies/{slug}" + p, handler, options);
  app.router.add(method, "/api/storage/companies/{slug}" + p, handler, options);
  app.router.add(method, "/api/storage" + p, handler, options);
}

void add_storage_route(App& app, const std::string& method, std::string_view path, std::string permission,
                       StorageHandler handler, RouteOptions options) {
  auto shared = std::make_shared<StorageHandler>(std::move(handler));
  Handler wrapped = [&app, shared, permission](Request& req) -> Response {
    CompanyContext ctx;
    if (auto refused = authorize(app, req, permission, ctx)) return std::move(*refused);
    return (*shared)(req, ctx);
  };
  add_storage_forms(app, method, path, wrapped, options);
}

}  // namespace edge::storage
