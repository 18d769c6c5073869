#include "edge/restaurant/menu_store.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {

core::restaurant::MenuProduct product_from_record(const json::object& rec) {
  core::restaurant::MenuProduct p;
  p.id = record::str(rec, "id");
  p.name = record::str(rec, "name");
  p.priceMinor = record::num(rec, "priceMinor");
  p.vatRateBps = record::num(rec, "vatRateBps");
  p.active = record::boolean(rec, "active");
  return p;
}

core::restaurant::OptionGroup option_group_from_record(const json::object& rec) {
  core::restaurant::OptionGroup g;
  g.id = record::str(rec, "id");
  g.name = record::str(rec, "name");
  g.minSelect = record::num(rec, "minSelect");
  g.maxSelect = record::num(rec, "maxSelect");
  if (auto* opts = rec.if_contains("options"); opts && opts->is_array()) {
    for (auto& o : opts->get_array()) {
      if (!o.is_object()) continue;
      auto& obj = o.get_object();
      g.options.push_back(
          {record::str(obj, "id"), record::str(obj, "name"), record::num(obj, "priceDeltaMinor")});
    }
  }
  return g;
}

core::Result<MenuItem> load_menu_item(App& app, const CompanyContext& ctx, std::string_view product_id) {
  if (!is_key_segment(product_id)) return core::make_error("product_not_found", "product not found");
  std::optional<MenuItem> item;
  store::Table t = app.restaurant_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    item.reset();
    auto text = txn.get(t, company_key(ctx, kProductKind, product_id));
    if (!text) return {};
    auto rec = core::parse_json_object(*text);
    if (!rec) return {};
    MenuItem found{*rec, product_from_record(*rec), {}};
    for (const std::string& gid : record::strs(*rec, "optionGroupIds")) {
      auto g = txn.get(t, company_key(ctx, kOptionGroupKind, gid));
      if (!g) continue;
      if (auto grec = core::parse_json_object(*g)) found.groups.push_back(option_group_from_record(*grec));
    }
    item = std::move(found);
    return {};
  });
  if (!st.ok()) return st.error();
  if (!item) return core::make_error("product_not_found", "product not found");
  return std::move(*item);
}

}  // namespace edge::restaurant
