#include "edge/pages/dashboard_routes.h"

#include <algorithm>

#include "edge/accounts/session_cookie.h"
#include "edge/app.h"
#include "edge/pages/app_page_headers.h"
#include "edge/platform/host_map.h"

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

// {status_url}/d[/{slug}[/{page}...]]: the status dashboard is the dashboard's status product
// (docs/status-dashboard.md), so these addresses answer 303 to /dashboard/{slug}/status/{page...} on the same
// host, with the query kept. `/d` alone opens the first company by name (as /dashboard does); without a
// company it goes to /dashboard, which says so. Signed out: the sign-in page, which comes back to this /d
// address.
Response status_dashboard(App& app, const Request& req) {
  // A status host of its own serves no dashboard (its session cookie and the platform API live on the
  // platform host): the visitor goes to the platform host's dashboard, its status product when the
  // company is named.
  if (const std::string platform = host_of_url(app.config.base_url);
      platform != host_of_url(app.config.status_url) && host_of_url(req.host) != platform) {
    auto segments = split_path(req.path);
    std::string location = app.config.base_url + "/dashboard";
    if (segments.size() > 1) {
      location += "/" + url_encode(segments[1]) + "/status";
      for (size_t i = 2; i < segments.size(); ++i) location += "/" + url_encode(segments[i]);
      if (segments.size() == 2) location += "/pages";
    }
    Response r = redirect_response(303, location);
    r.set_header("Cache-Control", "no-store");
    return r;
  }
  auto who = signed_in(app, req);
  if (!who) return redirect_response(303, login_redirect(req));
  auto segments = split_path(req.path);  // "d", then the rest
  std::string slug = segments.size() > 1 ? std::string(segments[1]) : std::string();
  if (slug.empty()) {
    auto companies = app.accounts->companies_of(who->user.id);
    if (!companies || companies->empty()) return redirect_response(303, "/dashboard");
    auto first = std::min_element(companies->begin(), companies->end(), [](const auto& a, const auto& b) {
      return a.first.name != b.first.name ? a.first.name < b.first.name : a.first.slug < b.first.slug;
    });
    slug = first->first.slug;
  }
  std::string location = "/dashboard/" + url_encode(slug) + "/status";
  if (segments.size() > 2) {
    for (size_t i = 2; i < segments.size(); ++i) location += "/" + url_encode(segments[i]);
  } else {
    location += "/pages";
  }
  std::string query;
  for (const auto& [name, value] : req.query)
    query += (query.empty() ? "?" : "&") + url_encode(name) + "=" + url_encode(value);
  Response r = redirect_response(303, location + query);
  r.set_header("Cache-Control", "no-store");
  return r;
}

}  // namespace

void register_dashboard_routes(App& app) {
  Router& r = app.router;
  r.add("GET", "/dashboard", [&app](Request& req) { return shell(app, req); });
  r.add("GET", "/dashboard/{path*}", [&app](Request& req) { return shell(app, req); });
  r.add("GET", "/d", [&app](Request& req) { return status_dashboard(app, req); });
  r.add("GET", "/d/{path*}", [&app](Request& req) { return status_dashboard(app, req); });

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
