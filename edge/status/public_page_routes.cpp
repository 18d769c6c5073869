#include "edge/status/public_page_routes.h"

#include <spdlog/spdlog.h>

#include "edge/app.h"
#include "edge/pages/app_page_headers.h"
#include "edge/platform/record_json.h"
#include "edge/status/atom_feed.h"
#include "edge/status/custom_domain.h"
#include "edge/status/embed_page.h"
#include "edge/status/live_updates.h"
#include "edge/status/public_page_data.h"
#include "edge/status/public_page_view.h"
#include "edge/status/status_http.h"

namespace edge::status {
namespace {

// Public documents are cached like the snapshot they show (30 s) and vary by language.
void set_public_cache(Response& r, Lang lang) {
  r.set_header("Cache-Control", "public, max-age=30");
  r.set_header("Vary", "Accept-Language");
  r.set_header("Content-Language", std::string(lang_code(lang)));
}

Response html(int status, std::string body) {
  Response r;
  r.status = status;
  r.content_type = "text/html; charset=utf-8";
  r.body = std::move(body);
  return r;
}

// `framable`: the embed's 404, which a third-party page frames.
Response not_found_page(Lang lang, bool framable = false) {
  Response r = html(404, render_public_not_found(lang));
  if (framable)
    set_embed_headers(r);
  else
    set_app_page_headers(r);
  r.set_header("Cache-Control", "no-store");
  r.set_header("Content-Language", std::string(lang_code(lang)));
  return r;
}

// Storage failures: logged, and the platform's error page without their details.
Response server_failure_page(const Request& req, const core::Error& e) {
  spdlog::error("status public page {}: {}: {}", req.path, e.code, e.message);
  return error_for_path(req, 500, "the status page cannot be read right now");
}

// The page a slug names, or the error answer: `page_not_found` -> nullopt page with no error response.
struct Lookup {
  std::optional<PublicPage> page;
  std::optional<core::Error> failure;  // storage and the like, not "not found"
};

Lookup lookup(App& app, std::string_view slug) {
  if (!is_key_segment(slug)) return {};
  auto page = page_by_slug(app, slug);
  if (page) return {std::move(*page), std::nullopt};
  if (page.error().code == "page_not_found") return {};
  return {std::nullopt, page.error()};
}

std::string base_of(App& app, const Request& req, std::string_view slug) {
  return on_custom_domain(app, req.host, slug) ? std::string() : "/p/" + std::string(slug);
}

Response page_route(App& app, Request& req) {
  const Lang lang = public_lang(req);
  const std::string slug(req.param("slug"));
  auto found = lookup(app, slug);
  if (found.failure) return server_failure_page(req, *found.failure);
  if (!found.page) return not_found_page(lang);
  auto snap = snapshot_object(app, *found.page, lang, app.clock.now_ms());
  if (!snap) return server_failure_page(req, snap.error());
  Response r = html(200, render_public_page(*snap, lang, PublicLinks{slug, base_of(app, req, slug)}));
  set_app_page_headers(r);
  set_public_cache(r, lang);
  return r;
}

Response embed_route(App& app, Request& req) {
  const Lang lang = public_lang(req);
  const std::string slug(req.param("slug"));
  auto found = lookup(app, slug);
  if (found.failure) return server_failure_page(req, *found.failure);
  if (!found.page) return not_found_page(lang, true);
  const std::string base = base_of(app, req, slug);
  Response r = html(
      200, render_embed(found.page->page, lang,
                        EmbedLinks{"/api/v1/status/" + slug + "?lang=" + std::string(lang_code(lang)),
                                   base.empty() ? "/" : base + "?lang=" + std::string(lang_code(lang))}));
  set_embed_headers(r);
  set_public_cache(r, lang);
  return r;
}

Response feed_route(App& app, Request& req) {
  const Lang lang = public_lang(req);
  const std::string slug(req.param("slug"));
  auto found = lookup(app, slug);
  if (found.failure) return server_failure_page(req, *found.failure);
  if (!found.page) return not_found_page(lang);
  auto snap = snapshot_object(app, *found.page, lang, app.clock.now_ms());
  if (!snap) return server_failure_page(req, snap.error());
  const std::string page_url = app.config.status_url + "/p/" + slug;
  Response r;
  r.content_type = "application/atom+xml; charset=utf-8";
  r.body = atom_feed(*snap, lang,
                     FeedLinks{page_url, page_url + "/feed.atom?lang=" + std::string(lang_code(lang))},
                     record::str(found.page->page, "updatedAt"));
  r.set_header("Access-Control-Allow-Origin", "*");
  r.set_header("X-Content-Type-Options", "nosniff");
  set_public_cache(r, lang);
  return r;
}

Response events_route(App& app, Request& req) {
  const Lang lang = public_lang(req);
  const std::string slug(req.param("slug"));
  auto found = lookup(app, slug);
  auto fail = [](Response e) {
    e.set_header("Access-Control-Allow-Origin", "*");
    e.set_header("Cache-Control", "no-store");
    return e;
  };
  if (found.failure) return fail(status_error(*found.failure));
  if (!found.page)
    return fail(status_error(core::make_error("page_not_found", "no status page has this slug")));
  return live_stream(app, *found.page, lang);
}

}  // namespace

void register_public_page_routes(App& app) {
  Router& r = app.router;
  r.add("GET", "/p/{slug}", [&app](Request& req) { return page_route(app, req); });
  r.add("GET", "/p/{slug}/embed", [&app](Request& req) { return embed_route(app, req); });
  r.add("GET", "/p/{slug}/feed.atom", [&app](Request& req) { return feed_route(app, req); });
  r.add("GET", "/api/v1/status/{slug}/events", [&app](Request& req) { return events_route(app, req); });
  if (auto loaded = load_custom_domains(app); !loaded.ok())
    spdlog::error("status custom domains not loaded: {}", loaded.error().message);
}

}  // namespace edge::status
