#include "edge/platform/route_client.h"

#include "edge/app.h"

namespace edge {

core::Result<core::json::object> call_route(App& app, const std::string& method, const std::string& path,
                                            const core::json::object& body, const std::string& bearer_token) {
  Request req;
  req.method = method;
  req.path = path;
  req.host = "127.0.0.1";
  req.remote_addr = "127.0.0.1";
  req.body = core::to_json(body);
  req.headers["authorization"] = "Bearer " + bearer_token;
  req.headers["content-type"] = "application/json";
  auto match = app.router.match(req);
  if (match.kind != Router::Match::found)
    return core::make_error("internal", "demo data: no route for " + method + " " + path);
  Response res = (*match.handler)(req);
  auto parsed = core::parse_json_object(res.body);
  if (res.status >= 300 || !parsed)
    return core::make_error("internal", "demo data: " + method + " " + path + " answered " +
                                            std::to_string(res.status) + " " + res.body);
  return std::move(*parsed);
}

}  // namespace edge
