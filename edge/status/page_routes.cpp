// Status pages (docs/status-api.md, "Pages"): create with a name and a public slug, list, read, patch the
// name, slug, branding, customDomain and subscribersEnabled, delete with everything beneath.

#include "core/date.h"
#include "core/id.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/page_events.h"
#include "edge/status/status_fields.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

json::object default_branding() {
  return {{"displayName", nullptr},
          {"primaryColor", nullptr},
          {"logoUrl", nullptr},
          {"logoLinkUrl", nullptr},
          {"tagline", nullptr}};
}

core::Status apply_branding(const json::object& body, json::object& branding) {
  struct Member {
    const char* key;
    std::function<core::Result<std::string>(std::string_view)> check;
  };
  const Member members[] = {{"displayName", text_value("displayName", kMaxNameChars)},
                            {"primaryColor", color_value},
                            {"logoUrl", http_url_value},
                            {"logoLinkUrl", http_url_value},
                            {"tagline", text_value("tagline", kMaxTaglineChars)}};
  for (const Member& m : members) {
    auto v = clearable_string(body, m.key, m.check);
    if (!v) return v.error();
    if (*v) branding[m.key] = std::move(**v);
  }
  return {};
}

// Applies the page members present in `body` to `page`; `name` and `slug` required on create are the
// caller's check. Validation does not depend on the stored page, so a patch fails the same way whatever
// is stored.
core::Status apply_page_fields(const json::object& body, json::object& page) {
  auto name = text_field(body, "name", kMaxNameChars, false);
  if (!name) return name.error();
  if (*name) page["name"] = **name;
  if (auto* s = body.if_contains("slug"); s && !s->is_null()) {
    if (!s->is_string()) return core::make_error("invalid_field", "field 'slug' must be a string");
    CORE_TRY(core::validate_slug(s->get_string()));
    page["slug"] = s->get_string();
  }
  if (auto* b = body.if_contains("branding"); b && !b->is_null()) {
    if (!b->is_object()) return core::make_error("invalid_field", "field 'branding' must be an object");
    json::object branding = page.contains("branding") && page["branding"].is_object()
                                ? page["branding"].get_object()
                                : default_branding();
    CORE_TRY(apply_branding(b->get_object(), branding));
    page["branding"] = std::move(branding);
  }
  auto domain = clearable_string(body, "customDomain", domain_value);
  if (!domain) return domain.error();
  if (*domain) page["customDomain"] = std::move(**domain);
  auto subscribers = core::optional_bool(body, "subscribersEnabled");
  if (!subscribers) return subscribers.error();
  if (*subscribers) page["subscribersEnabled"] = **subscribers;
  return {};
}

Response not_found_or(const core::Error& e) {
  return status_error(e);
}

}  // namespace

void register_page_routes(App& app) {
  Router& r = app.router;
  r.add("POST", dashboard_path("/pages"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          for (const char* required : {"name", "slug"})
            if (!body->contains(required) || body->at(required).is_null())
              return status_error(422, "missing_field", "field '" + std::string(required) + "' is required");
          std::string now = core::format_timestamp(app.clock.now_ms());
          json::object page{{"id", core::make_id("pg_", app.random)},
                            {"name", ""},
                            {"slug", ""},
                            {"branding", default_branding()},
                            {"customDomain", nullptr},
                            {"subscribersEnabled", false},
                            {"createdAt", now},
                            {"updatedAt", now}};
          auto st = apply_page_fields(*body, page);
          if (!st.ok()) return status_error(st.error());
          auto created = create_page(app, ctx.company.id, page);
          if (!created.ok()) return status_error(created.error());
          app.status_snapshots.invalidate(record::str(page, "slug"));
          page_changed(app, ctx.company.id, record::str(page, "id"));  // custom domain, live viewers
          return status_ok(std::move(page), 201);
        }));
  r.add("GET", dashboard_path("/pages"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto all = list_records(app, "c/" + ctx.company.id + "/page/");
          if (!all) return status_error(all.error());
          std::stable_sort(all->begin(), all->end(), [](const json::object& a, const json::object& b) {
            return std::pair(record::str(a, "createdAt"), record::str(a, "id")) <
                   std::pair(record::str(b, "createdAt"), record::str(b, "id"));
          });
          return paged(req, *all);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto page = load_page(app, ctx, req.param("pageId"));
          if (!page) return not_found_or(page.error());
          return status_ok(std::move(*page));
        }));
  r.add("PATCH", dashboard_path("/pages/{pageId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          json::object scratch;
          auto st = apply_page_fields(*body, scratch);
          if (!st.ok()) return status_error(st.error());
          std::string page_id(req.param("pageId"));
          if (!is_key_segment(page_id)) return status_error(404, "page_not_found", "page not found");
          std::string now = core::format_timestamp(app.clock.now_ms());
          std::string old_slug;
          json::object out;
          auto updated = update_page(
              app, ctx.company.id, page_id,
              [&](json::object& page) -> core::Status {
                old_slug = record::str(page, "slug");
                // Re-applied on the stored page so that branding members merge with the stored ones.
                CORE_TRY(apply_page_fields(*body, page));
                page["updatedAt"] = now;
                return {};
              },
              out);
          if (!updated.ok()) return status_error(updated.error());
          app.status_snapshots.invalidate(old_slug);
          app.status_snapshots.invalidate(record::str(out, "slug"));
          page_changed(app, ctx.company.id, page_id);  // custom domain, live viewers
          return status_ok(std::move(out));
        }));
  r.add("DELETE", dashboard_path("/pages/{pageId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto page = load_page(app, ctx, req.param("pageId"));
          if (!page) return status_error(page.error());
          auto deleted = delete_page(app, ctx.company.id, req.param("pageId"));
          if (!deleted.ok()) return status_error(deleted.error());
          app.status_snapshots.invalidate(record::str(*page, "slug"));
          page_changed(app, ctx.company.id, req.param("pageId"));  // custom domain, live viewers
          app.status_probes->sync_soon();
          Response res;
          res.status = 204;
          return res;
        }));
}

}  // namespace edge::status
