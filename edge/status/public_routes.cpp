// The public snapshot and the Statuspage-compatible summary (docs/status-api.md, "Public"): no
// authentication, open to every origin, cached 30 s per page slug and locale (spec Limits).

#include "edge/app.h"
#include "edge/pages/lang.h"
#include "edge/platform/record_json.h"
#include "edge/status/public_page_data.h"
#include "edge/status/snapshot.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

Response with_public_headers(Response r, std::string_view cache_control) {
  r.set_header("Access-Control-Allow-Origin", "*");
  r.set_header("Cache-Control", std::string(cache_control));
  return r;
}

Response public_json(std::string body, std::string_view lang) {
  Response r;
  r.body = std::move(body);
  r.set_header("Content-Language", std::string(lang));
  r.set_header("Vary", "Accept-Language");
  return with_public_headers(std::move(r), "public, max-age=30");
}

Response public_error(const core::Error& e) {
  return with_public_headers(status_error(e), "no-store");
}

// `document` names the cache entry: the locale for the snapshot, `summary.json` for the summary.
template <class Build>
Response cached(App& app, std::string_view slug, std::string_view document, std::string_view lang,
                Build build) {
  const std::int64_t now = app.clock.now_ms();
  if (auto body = app.status_snapshots.get(slug, document, now)) return public_json(std::move(*body), lang);
  auto page = page_by_slug(app, slug);
  if (!page) return public_error(page.error());
  auto data = load_page_data(app, std::move(*page), now);
  if (!data) return public_error(data.error());
  std::string body = core::to_json(build(*data, now));
  app.status_snapshots.put(slug, document, body, now);
  return public_json(std::move(body), lang);
}

}  // namespace

void register_public_routes(App& app) {
  Router& r = app.router;
  // On the I/O thread: nearly every request is a cache hit (a lookup and a copy), and two thread hand-offs
  // per hit cost more than the answer (docs/performance.md, "Cached snapshot vs nginx"). A miss, at most
  // once per 30 s per page and locale, reads the page's rollups there too: bounded reads, no write.
  const RouteOptions inline_read{.nonblocking = true};
  r.add(
      "GET", "/api/v1/status/{slug}",
      [&app](Request& req) {
        Lang lang = public_lang(req);
        std::string slug(req.param("slug"));
        if (!is_key_segment(slug))
          return public_error(core::make_error("page_not_found", "no status page has this slug"));
        return cached(
            app, slug, lang_code(lang), lang_code(lang),
            [lang](const PageData& data, std::int64_t now) { return snapshot_json(data, now, lang); });
      },
      inline_read);
  r.add(
      "GET", "/api/v1/status/{slug}/summary.json",
      [&app](Request& req) {
        std::string slug(req.param("slug"));
        if (!is_key_segment(slug))
          return public_error(core::make_error("page_not_found", "no status page has this slug"));
        std::string url = app.config.status_url + "/p/" + slug;
        // Statuspage's summary is English only.
        return cached(app, slug, "summary.json", "en", [&url](const PageData& data, std::int64_t) {
          return statuspage_summary_json(data, url);
        });
      },
      inline_read);
}

}  // namespace edge::status
