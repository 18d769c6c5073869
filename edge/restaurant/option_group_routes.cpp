// Option groups of the menu (docs/restaurant-orders.md, "Option groups"): `{id, name, minSelect, maxSelect,
// options: [{id, name, priceDeltaMinor}]}`. Products: product_routes.cpp.

#include <algorithm>
#include <string>
#include <vector>

#include "core/id.h"
#include "core/restaurant/menu.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/idempotency.h"
#include "edge/restaurant/menu_routes.h"
#include "edge/restaurant/menu_store.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

// The group members a body sets, and which option ids were made for it.
struct OptionGroupChanges {
  json::object fields;
  // Ids generated (before the write transaction) for the `options` elements that came without one. Every
  // other option id in `fields` was named by the client and must be an option the group already has.
  std::vector<std::string> newOptionIds;
};

// Reads the group members present in `body` (`name` required on create). Errors: missing_field,
// invalid_field, invalid_amount.
core::Result<OptionGroupChanges> option_group_fields(App& app, const json::object& body, bool create) {
  OptionGroupChanges out;
  if (create || body.contains("name")) {
    auto name = name_field(body);
    if (!name) return name.error();
    out.fields["name"] = *name;
  }
  for (std::string_view key : {"minSelect", "maxSelect"}) {
    auto n = core::optional_int(body, key);
    if (!n) return n.error();
    if (*n) out.fields[key] = **n;
  }
  auto* opts = body.if_contains("options");
  if (!opts || opts->is_null()) return out;
  if (!opts->is_array()) return core::make_error("invalid_field", "field 'options' must be an array");
  json::array options;
  for (auto& o : opts->get_array()) {
    if (!o.is_object()) return core::make_error("invalid_field", "field 'options' must hold objects");
    auto& obj = o.get_object();
    auto name = name_field(obj);
    if (!name) return name.error();
    auto delta = amount_field(obj, "priceDeltaMinor", false);
    if (!delta) return delta.error();
    auto id = core::optional_string(obj, "id");
    if (!id) return id.error();
    if (!*id) {
      *id = core::make_id("opt_", app.random);
      out.newOptionIds.push_back(**id);
    }
    options.emplace_back(
        json::object{{"id", **id}, {"name", *name}, {"priceDeltaMinor", delta->value_or(0)}});
  }
  out.fields["options"] = std::move(options);
  return out;
}

// The option ids the client named are options of `stored` (none on create), each listed once.
// Errors: `invalid_field`.
core::Status check_option_ids(const OptionGroupChanges& changes, const json::object& stored) {
  auto* opts = changes.fields.if_contains("options");
  if (!opts) return {};
  std::vector<std::string> known;
  for (auto& o : option_group_from_record(stored).options) known.push_back(o.id);
  const std::vector<std::string>& made = changes.newOptionIds;
  std::vector<std::string> seen;
  for (auto& o : opts->get_array()) {
    std::string id = record::str(o.get_object(), "id");
    bool is_new = std::find(made.begin(), made.end(), id) != made.end();
    if (!is_new && std::find(known.begin(), known.end(), id) == known.end())
      return core::make_error("invalid_field", "option '" + id + "' is not an option of this group");
    if (std::find(seen.begin(), seen.end(), id) != seen.end())
      return core::make_error("invalid_field", "option '" + id + "' is listed twice");
    seen.push_back(id);
  }
  return {};
}

Response create_option_group(App& app, Request& req, const CompanyContext& ctx) {
  if (!may_manage_menu(ctx)) return rest_forbidden("restaurant.manage");
  IdempotentCreate idem;
  if (auto answered = idem.begin(app, req, ctx, "POST /option-groups", "")) return std::move(*answered);
  auto body = core::parse_json_object(req.body);
  if (!body) return rest_error(body.error());
  std::string now = now_text(app);
  json::object rec{{"id", core::make_id("opg_", app.random)},
                   {"name", ""},
                   {"minSelect", 0},
                   {"maxSelect", 1},
                   {"options", json::array()}};
  auto changes = option_group_fields(app, *body, true);
  if (!changes) return rest_error(changes.error());
  auto st = check_option_ids(*changes, json::object{});
  if (!st.ok()) return rest_error(st.error());
  for (auto& [k, v] : changes->fields) rec[k] = v;
  st = core::restaurant::validate_option_group(option_group_from_record(rec));
  if (!st.ok()) return rest_error(st.error());
  rec["createdAt"] = now;
  rec["updatedAt"] = now;
  return create_record(app, idem, company_key(ctx, kOptionGroupKind, record::str(rec, "id")), rec);
}

Response patch_option_group(App& app, Request& req, const CompanyContext& ctx) {
  if (!may_manage_menu(ctx)) return rest_forbidden("restaurant.manage");
  std::string id(req.param("id"));
  if (!is_key_segment(id)) return menu_not_found("option_group");
  auto body = core::parse_json_object(req.body);
  if (!body) return rest_error(body.error());
  auto changes = option_group_fields(app, *body, false);
  if (!changes) return rest_error(changes.error());
  changes->fields["updatedAt"] = now_text(app);
  json::object out;
  // The option ids are checked against the group as the write transaction sees it.
  auto updated = update_record(
      app, company_key(ctx, kOptionGroupKind, id), "option_group_not_found",
      [&](json::object& rec) -> core::Status {
        CORE_TRY(check_option_ids(*changes, rec));
        for (auto& [k, v] : changes->fields) rec[k] = v;
        return core::restaurant::validate_option_group(option_group_from_record(rec));
      },
      out);
  if (!updated.ok()) return rest_error(updated.error());
  return rest_ok(std::move(out));
}

// Deleting a group also takes it off every product that offered it, in the same transaction.
Response delete_option_group(App& app, Request& req, const CompanyContext& ctx) {
  if (!may_manage_menu(ctx)) return rest_forbidden("restaurant.manage");
  std::string id(req.param("id"));
  if (!is_key_segment(id)) return menu_not_found("option_group");
  store::Table t = app.restaurant_table;
  std::string products = "c/" + ctx.company.id + "/" + std::string(kProductKind) + "/";
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(t, company_key(ctx, kOptionGroupKind, id)))
      return core::make_error("option_group_not_found", "option group not found");
    std::vector<std::pair<std::string, json::object>> changed;
    txn.scan(t, products, [&](std::string_view key, std::string_view value) {
      auto p = core::parse_json_object(value);
      if (!p) return true;
      auto ids = record::strs(*p, "optionGroupIds");
      auto it = std::find(ids.begin(), ids.end(), id);
      if (it == ids.end()) return true;
      ids.erase(it);
      (*p)["optionGroupIds"] = record::array_of(ids);
      changed.emplace_back(std::string(key), std::move(*p));
      return true;
    });
    for (auto& [key, p] : changed) txn.put(t, key, core::to_json(p));
    return {};
  });
  if (!st.ok()) return rest_error(st.error());
  return rest_ok(json::object{{"id", id}, {"deleted", true}});
}

}  // namespace

void register_option_groups(App& app) {
  Router& r = app.router;
  const std::string prefix = "/option-groups";
  r.add("GET", path(prefix),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto all = list_records(app, "c/" + ctx.company.id + "/" + std::string(kOptionGroupKind) + "/");
          if (!all) return rest_error(all.error());
          return sorted_page(req, std::move(*all));
        }));
  r.add("GET", path(prefix + "/{id}"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return menu_not_found("option_group");
          auto rec = get_record(app, company_key(ctx, kOptionGroupKind, id));
          if (!rec) return rest_error(rec.error());
          if (!*rec) return menu_not_found("option_group");
          return rest_ok(std::move(**rec));
        }));
  r.add("POST", path(prefix), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          return create_option_group(app, req, ctx);
        }));
  r.add("PATCH", path(prefix + "/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          return patch_option_group(app, req, ctx);
        }));
  r.add("DELETE", path(prefix + "/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          return delete_option_group(app, req, ctx);
        }));
}

}  // namespace edge::restaurant
