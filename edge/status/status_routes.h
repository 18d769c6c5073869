#pragma once
// The status service's JSON API (docs/status-api.md): the dashboard under
// {status_url}/api/v1/dashboard/companies/{slug}/pages/... and the public snapshot under
// {status_url}/api/v1/status/{slug}. One file per resource registers its routes.

#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/platform/company_auth.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

inline constexpr std::string_view kDashboardBase = "/api/v1/dashboard/companies/{slug}";

// kDashboardBase + rest: a dashboard route pattern.
std::string dashboard_path(std::string_view rest);

// The page named by the `pageId` path parameter, of the caller's company; `page_not_found` otherwise.
core::Result<json::object> load_page(App& app, const CompanyContext& ctx, std::string_view page_id);
// The component `componentId` of that page; `page_not_found` / `component_not_found`.
core::Result<json::object> load_component(App& app, const CompanyContext& ctx, std::string_view page_id,
                                          std::string_view component_id);

// The page's components in display order: `order`, then creation, then id.
core::Result<std::vector<json::object>> list_components(App& app, std::string_view company_id,
                                                        std::string_view page_id);

// The component's checks in creation order.
core::Result<std::vector<json::object>> list_checks(App& app, std::string_view company_id,
                                                    std::string_view page_id, std::string_view component_id);

// The `limit`/`skip` page of `all` as a JSON array, the full count in X-Total-Count; 422 `invalid_field`
// for bad paging.
Response paged(const Request& req, const std::vector<json::object>& all);

void register_page_routes(App& app);
void register_component_routes(App& app);
void register_check_routes(App& app);
void register_public_routes(App& app);
void register_incident_routes(App& app);
void register_maintenance_routes(App& app);

// Every route above.
void register_status_routes(App& app);

}  // namespace edge::status
