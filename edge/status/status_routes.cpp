#include "edge/status/status_routes.h"

#include "edge/app.h"
#include "edge/platform/paging.h"
#include "edge/status/public_page_routes.h"
#include "edge/status/restart_routes.h"
#include "edge/status/sla.h"
#include "edge/status/status_http.h"
#include "edge/status/status_store.h"
#include "edge/status/subscriber_routes.h"

namespace edge::status {

std::string dashboard_path(std::string_view rest) {
  return std::string(kDashboardBase) + std::string(rest);
}

core::Result<json::object> load_page(App& app, const CompanyContext& ctx, std::string_view page_id) {
  if (!is_key_segment(page_id)) return core::make_error("page_not_found", "page not found");
  auto page = get_record(app, page_key(ctx.company.id, page_id));
  if (!page) return page.error();
  if (!*page) return core::make_error("page_not_found", "page not found");
  return std::move(**page);
}

core::Result<json::object> load_component(App& app, const CompanyContext& ctx, std::string_view page_id,
                                          std::string_view component_id) {
  auto page = load_page(app, ctx, page_id);
  if (!page) return page.error();
  if (!is_key_segment(component_id)) return core::make_error("component_not_found", "component not found");
  auto component = get_record(app, component_key(ctx.company.id, page_id, component_id));
  if (!component) return component.error();
  if (!*component) return core::make_error("component_not_found", "component not found");
  return std::move(**component);
}

Response paged(const Request& req, const std::vector<json::object>& all) {
  auto paging = parse_paging(req);
  if (!paging) return status_error(paging.error());
  json::array out;
  for (auto& item : paging->apply(all)) out.emplace_back(item);
  Response r = status_ok(std::move(out));
  r.set_header("X-Total-Count", std::to_string(all.size()));
  return r;
}

void register_status_routes(App& app) {
  register_page_routes(app);
  register_component_routes(app);
  register_check_routes(app);
  register_restart_routes(app);
  register_public_routes(app);
  register_subscriber_routes(app);
  register_subscriber_pages(app);
  register_incident_routes(app);
  register_maintenance_routes(app);
  register_sla_routes(app);
  register_public_page_routes(app);
}

}  // namespace edge::status
