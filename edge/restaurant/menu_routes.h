#pragma once
// What the menu route files share (product_routes.cpp, option_group_routes.cpp; docs/restaurant-orders.md,
// "Menu"): the menu belongs to the company, reads need restaurant.view and writes restaurant.manage.

#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/json.h"
#include "edge/http/message.h"
#include "edge/platform/company_auth.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"

namespace edge::restaurant {

// Whether the caller may write the menu (restaurant.manage; else the routes answer 403 `forbidden`).
inline bool may_manage_menu(const CompanyContext& ctx) {
  return ctx.principal.allows("restaurant.write");
}

// 404 `<what>_not_found` (`product`, `option_group`).
inline Response menu_not_found(std::string_view what) {
  return rest_error(404, std::string(what) + "_not_found", std::string(what) + " not found");
}

// `all` sorted by name, then id, and paged like every restaurant list.
inline Response sorted_page(const Request& req, std::vector<core::json::object> all) {
  std::stable_sort(all.begin(), all.end(), [](const core::json::object& a, const core::json::object& b) {
    return std::tuple(record::str(a, "name"), record::str(a, "id")) <
           std::tuple(record::str(b, "name"), record::str(b, "id"));
  });
  return paged(req, all);
}

}  // namespace edge::restaurant
