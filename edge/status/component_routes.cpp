// Components of a status page (docs/status-api.md, "Components"): create, list in display order, read,
// patch the name and the order, delete with their checks.

#include <algorithm>
#include <tuple>

#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/page_events.h"
#include "edge/status/status_fields.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

core::Status apply_component_fields(const json::object& body, json::object& component) {
  auto name = text_field(body, "name", kMaxNameChars, false);
  if (!name) return name.error();
  if (*name) component["name"] = **name;
  auto order = core::optional_int(body, "order");
  if (!order) return order.error();
  if (*order) component["order"] = **order;
  return {};
}

}  // namespace

core::Result<std::vector<json::object>> list_components(App& app, std::string_view company_id,
                                                        std::string_view page_id) {
  auto all = list_records(app, component_prefix(company_id, page_id));
  if (!all) return all.error();
  std::stable_sort(all->begin(), all->end(), [](const json::object& a, const json::object& b) {
    return std::tuple(record::num(a, "order"), record::str(a, "createdAt"), record::str(a, "id")) <
           std::tuple(record::num(b, "order"), record::str(b, "createdAt"), record::str(b, "id"));
  });
  return all;
}

void register_component_routes(App& app) {
  Router& r = app.router;
  r.add("POST", dashboard_path("/pages/{pageId}/components"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          if (!body->contains("name") || body->at("name").is_null())
            return status_error(422, "missing_field", "field 'name' is required");
          auto existing = list_components(app, ctx.company.id, page_id);
          if (!existing) return status_error(existing.error());
          // A new component goes last unless the body places it.
          std::int64_t next_order = 0;
          for (auto& c : *existing) next_order = std::max(next_order, record::num(c, "order") + 1);
          std::string now = core::format_timestamp(app.clock.now_ms());
          json::object component{{"id", core::make_id("cmp_", app.random)},
                                 {"pageId", page_id},
                                 {"name", ""},
                                 {"order", next_order},
                                 {"createdAt", now},
                                 {"updatedAt", now}};
          auto st = apply_component_fields(*body, component);
          if (!st.ok()) return status_error(st.error());
          std::string id = record::str(component, "id");
          auto stored = insert_record(app, component_key(ctx.company.id, page_id, id), component);
          if (!stored.ok()) return status_error(stored.error());
          page_changed(app, ctx.company.id, record::str(*page, "id"));
          return status_ok(std::move(component), 201);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/components"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto all = list_components(app, ctx.company.id, page_id);
          if (!all) return status_error(all.error());
          return paged(req, *all);
        }));
  r.add("GET", dashboard_path("/pages/{pageId}/components/{componentId}"),
        dashboard_route(app, "status.view", [&app](Request& req, const CompanyContext& ctx) {
          auto component = load_component(app, ctx, req.param("pageId"), req.param("componentId"));
          if (!component) return status_error(component.error());
          return status_ok(std::move(*component));
        }));
  r.add("PATCH", dashboard_path("/pages/{pageId}/components/{componentId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId")), component_id(req.param("componentId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          auto body = core::parse_json_object(req.body);
          if (!body) return status_error(body.error());
          json::object scratch;
          auto st = apply_component_fields(*body, scratch);
          if (!st.ok()) return status_error(st.error());
          if (!is_key_segment(component_id))
            return status_error(404, "component_not_found", "component not found");
          std::string now = core::format_timestamp(app.clock.now_ms());
          json::object out;
          auto updated = update_record(
              app, component_key(ctx.company.id, page_id, component_id), "component_not_found",
              [&](json::object& component, store::WriteTxn&) -> core::Status {
                for (auto& [k, v] : scratch) component[k] = v;
                component["updatedAt"] = now;
                return {};
              },
              out);
          if (!updated.ok()) return status_error(updated.error());
          page_changed(app, ctx.company.id, record::str(*page, "id"));
          return status_ok(std::move(out));
        }));
  r.add("DELETE", dashboard_path("/pages/{pageId}/components/{componentId}"),
        dashboard_route(app, "status.manage", [&app](Request& req, const CompanyContext& ctx) {
          std::string page_id(req.param("pageId")), component_id(req.param("componentId"));
          auto page = load_page(app, ctx, page_id);
          if (!page) return status_error(page.error());
          if (!is_key_segment(component_id))
            return status_error(404, "component_not_found", "component not found");
          auto deleted = delete_component(app, ctx.company.id, page_id, component_id);
          if (!deleted.ok()) return status_error(deleted.error());
          page_changed(app, ctx.company.id, record::str(*page, "id"));
          app.status_probes->sync_soon();
          Response res;
          res.status = 204;
          return res;
        }));
}

}  // namespace edge::status
