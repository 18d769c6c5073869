#include "edge/platform/static_routes.h"

#include "edge/app.h"
#include "edge/pages/app_page_headers.h"
#include "edge/platform/envelope.h"

namespace edge {
namespace {

std::string_view content_type_for(std::string_view path) {
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".wasm")) return "application/wasm";
  if (ends(".json")) return "application/json";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  if (ends(".ts")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// Serves `relative` below `root`; a folder's address (ending in `/`) serves its index.html, as the till's
// /web/till/ does. Paths with `..`, empty or hidden segments answer 404, so nothing outside the folder (or
// a dotfile in it) can be read.
Response serve_file(const Request& req, const std::string& root, std::string_view requested) {
  std::string relative(requested);
  if (req.path.ends_with('/'))
    relative += relative.empty() || relative.ends_with('/') ? "index.html" : "/index.html";
  for (std::string_view seg : split_path(relative))
    if (seg.empty() || seg.front() == '.') return error_for_path(req, 404, "not found");
  Response r;
  r.content_type = std::string(content_type_for(relative));
  r.file = root + "/" + std::string(relative);  // the transport answers 404 when it cannot be opened
  // Revalidated on every use (ETag, 304), so a rebuilt wasm module or page is never served stale.
  r.set_header("Cache-Control", "no-cache");
  r.set_header("X-Content-Type-Options", "nosniff");
  // A page here runs the platform's modules (the till, the tools): the dashboard's policy.
  if (relative.ends_with(".html")) set_app_page_headers(r);
  return r;
}

}  // namespace

void register_static_routes(App& app) {
  Router& r = app.router;
  // Ready while the store takes writes. After a failed commit or flush it takes none until the edge is
  // restarted (store::KvStore::health): 503 with the reason, so a load balancer stops sending traffic.
  r.add("GET", "/healthz",
        [&app](Request&) {
          Response res;
          if (core::Status health = app.kv->health(); !health.ok()) {
            res.status = 503;
            res.body = core::to_json(
                core::json::object{{"status", "unavailable"},
                                   {"reason", "the store stopped taking writes: " + health.error().message}});
            return res;
          }
          res.body = R"({"status":"ok"})";
          return res;
        },
        {.nonblocking = true});
  r.add("GET", "/web/wasm/{file*}",
        [&app](Request& req) { return serve_file(req, app.config.wasm_root, req.param("file")); },
        {.nonblocking = true});
  r.add("GET", "/web/bindings/{file*}",
        [&app](Request& req) { return serve_file(req, app.config.bindings_root, req.param("file")); },
        {.nonblocking = true});
  r.add("GET", "/web/{file*}",
        [&app](Request& req) { return serve_file(req, app.config.web_root, req.param("file")); },
        {.nonblocking = true});
}

}  // namespace edge
