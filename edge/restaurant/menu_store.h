#pragma once
// Menu records (products `c/<companyId>/product/<id>`, option groups `c/<companyId>/optgroup/<id>`) as the
// core's menu types (core/restaurant/menu.h), for pricing order lines.

#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/restaurant/menu.h"
#include "core/result.h"
#include "edge/platform/company_auth.h"

namespace edge::restaurant {

namespace json = core::json;

inline constexpr std::string_view kProductKind = "product";
inline constexpr std::string_view kOptionGroupKind = "optgroup";

core::restaurant::MenuProduct product_from_record(const json::object& rec);
core::restaurant::OptionGroup option_group_from_record(const json::object& rec);

// A product with its option groups, in the product's order, read from one snapshot. A group id whose record
// is gone is skipped (deleting a group also removes it from products; this covers stored data only).
struct MenuItem {
  json::object record;
  core::restaurant::MenuProduct product;
  std::vector<core::restaurant::OptionGroup> groups;
};

// Errors: `product_not_found` (unknown id, or of another company), `storage_error`.
core::Result<MenuItem> load_menu_item(App& app, const CompanyContext& ctx, std::string_view product_id);

}  // namespace edge::restaurant
