#include "edge/pages/dashboard_routes.h"

#include "edge/accounts/session_cookie.h"
#include "edge/app.h"
#include "edge/pages/app_page_headers.h"

namespace edge {
namespace {

// Where the sign-in page sends the browser back to: this path and query, percent-encoded.
std::string login_redirect(const Request& req) {
  std::string here;
  for (std::string_view segment : split_path(req.path)) here += "/" + url_encode(segment);
  std::string query;
  for (const auto& [name, value] : req.query)
    query += (query.empty() ? "?" : "&") + url_encode(name) + "=" + url_encode(value);
  std::string location = "/login?next=" + url_encode(here + query);
  // The dashboard's ?lang= picks the sign-in page's language too.
  if (auto lang = req.query_param("lang"); lang == "tr" || lang == "en") location += "&ui_locales=" + *lang;
  return location;
}

Response shell(App& app, const Request& req) {
  if (!signed_in(app, req)) return redirect_response(303, login_redirect(req));
  Response r;
  r.content_type = "text/html; charset=utf-8";
  r.file = app.config.web_root + "/dashboard/index.html";
  // The shell is the same for every path and user; revalidated (ETag) so a new deployment shows at once.
  r.set_header("Cache-Control", "no-cache");
  set_app_page_headers(r);
  return r;
}

}  // namespace

void register_dashboard_routes(App& app) {
  Router& r = app.router;
  r.add("GET", "/dashboard", [&app](Request& req) { return shell(app, req); });
  r.add("GET", "/dashboard/{path*}", [&app](Request& req) { return shell(app, req); });

  // One file of one npm package (package.json's mjml-browser): nothing else under node_modules is served.
  r.add("GET", "/web/vendor/mjml-browser.js",
        [&app](Request&) {
          Response res;
          res.content_type = "text/javascript; charset=utf-8";
          res.file = app.config.node_modules_root + "/mjml-browser/lib/index.js";
          res.set_header("Cache-Control", "no-cache");
          res.set_header("X-Content-Type-Options", "nosniff");
          return res;
        },
        {.nonblocking = true});
}

}  // namespace edge
