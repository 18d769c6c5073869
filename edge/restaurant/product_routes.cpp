// The menu, shared by every branch of a company (docs/restaurant-orders.md): products under /products and
// option groups under /option-groups. Reads need restaurant.view; writes restaurant.manage (403 `forbidden`).

#include <algorithm>
#include <tuple>

#include "core/id.h"
#include "core/money.h"
#include "core/restaurant/menu.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/menu_store.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

namespace menu = core::restaurant;

bool may_manage(const CompanyContext& ctx) {
  return ctx.principal.allows("restaurant.write");
}

Response not_found(std::string_view what) {
  return rest_error(404, std::string(what) + "_not_found", std::string(what) + " not found");
}

// Sorted by name, then id; paged like the catalog.
Response sorted_page(const Request& req, std::vector<json::object> all) {
  std::stable_sort(all.begin(), all.end(), [](const json::object& a, const json::object& b) {
    return std::tuple(record::str(a, "name"), record::str(a, "id")) <
           std::tuple(record::str(b, "name"), record::str(b, "id"));
  });
  return paged(req, all);
}

// A product's VAT rate: vat_rate_field, and 0..10000 (`vat_rate_invalid`) checked here, as a product is
// stored without going through another core rule.
core::Result<std::optional<std::int64_t>> rate_field(const json::object& body, bool required) {
  auto rate = vat_rate_field(body, required);
  if (rate && *rate) CORE_TRY(core::validate_vat_rate_bps(**rate));
  return rate;
}

// ---- Products ----------------------------------------------------------------------------------------

// Validates the product members present in `body` into `out` (required ones on create), including that
// the category and option groups exist.
core::Status product_fields(App& app, const CompanyContext& ctx, const json::object& body, bool create,
                            json::object& out) {
  if (create || body.contains("name")) {
    auto name = name_field(body);
    if (!name) return name.error();
    out["name"] = *name;
  }
  auto rate = rate_field(body, create);
  if (!rate) return rate.error();
  auto price = amount_field(body, "priceMinor", create);
  if (!price) return price.error();
  if (*price) {
    CORE_TRY(core::validate_amount_minor(**price, "priceMinor"));
    out["priceMinor"] = **price;
  }
  if (*rate) out["vatRateBps"] = **rate;
  if (auto* c = body.if_contains("categoryId")) {
    if (c->is_null()) {
      out["categoryId"] = nullptr;
    } else {
      auto id = core::require_string(body, "categoryId");
      if (!id) return id.error();
      auto cat = is_key_segment(*id) ? get_record(app, company_key(ctx, "category", *id))
                                     : core::Result<std::optional<json::object>>(std::nullopt);
      if (!cat) return cat.error();
      if (!*cat) return core::make_error("category_not_found", "category '" + *id + "' not found");
      out["categoryId"] = *id;
    }
  }
  auto groups = core::optional_string_array(body, "optionGroupIds");
  if (!groups) return groups.error();
  if (*groups) {
    for (std::size_t i = 0; i < (*groups)->size(); ++i) {
      const std::string& id = (**groups)[i];
      if (std::find((*groups)->begin(), (*groups)->begin() + static_cast<std::ptrdiff_t>(i), id) !=
          (*groups)->begin() + static_cast<std::ptrdiff_t>(i))
        return core::make_error("invalid_field", "field 'optionGroupIds' lists '" + id + "' twice");
      auto g = is_key_segment(id) ? get_record(app, company_key(ctx, kOptionGroupKind, id))
                                  : core::Result<std::optional<json::object>>(std::nullopt);
      if (!g) return g.error();
      if (!*g) return core::make_error("option_group_not_found", "option group '" + id + "' not found");
    }
    out["optionGroupIds"] = record::array_of(**groups);
  }
  auto active = core::optional_bool(body, "active");
  if (!active) return active.error();
  if (*active) out["active"] = **active;
  return {};
}

void register_product_routes(App& app) {
  Router& r = app.router;
  r.add("GET", path("/products"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto active = req.query_param("activeOnly");
          bool active_only = active && (*active == "true" || *active == "1");
          if (active && !active_only && *active != "false" && *active != "0")
            return rest_error(422, "invalid_field", "query parameter 'activeOnly' must be true or false");
          auto category = req.query_param("categoryId");
          auto all = list_records(app, "c/" + ctx.company.id + "/" + std::string(kProductKind) + "/");
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& p : *all) {
            if (active_only && !record::boolean(p, "active")) continue;
            if (category && record::str(p, "categoryId") != *category) continue;
            out.push_back(std::move(p));
          }
          return sorted_page(req, std::move(out));
        }));

  r.add("GET", path("/products/{id}"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return not_found("product");
          auto rec = get_record(app, company_key(ctx, kProductKind, id));
          if (!rec) return rest_error(rec.error());
          if (!*rec) return not_found("product");
          return rest_ok(std::move(**rec));
        }));

  r.add("POST", path("/products"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!may_manage(ctx)) return rest_forbidden("restaurant.manage");
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          std::string now = now_text(app);
          json::object rec{{"id", core::make_id("prd_", app.random)},
                           {"name", ""},
                           {"priceMinor", 0},
                           {"vatRateBps", 0},
                           {"categoryId", nullptr},
                           {"optionGroupIds", json::array()},
                           {"active", true},
                           {"createdAt", now},
                           {"updatedAt", now}};
          auto st = product_fields(app, ctx, *body, true, rec);
          if (!st.ok()) return rest_error(st.error());
          auto put = put_record(app, company_key(ctx, kProductKind, record::str(rec, "id")), rec);
          if (!put.ok()) return rest_error(put.error());
          return rest_ok(std::move(rec), 201);
        }));

  r.add("PATCH", path("/products/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!may_manage(ctx)) return rest_forbidden("restaurant.manage");
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return not_found("product");
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          json::object changes;
          auto st = product_fields(app, ctx, *body, false, changes);
          if (!st.ok()) return rest_error(st.error());
          changes["updatedAt"] = now_text(app);
          json::object out;
          auto updated = update_record(
              app, company_key(ctx, kProductKind, id), "product_not_found",
              [&](json::object& rec) -> core::Status {
                for (auto& [k, v] : changes) rec[k] = v;
                return {};
              },
              out);
          if (!updated.ok()) return rest_error(updated.error());
          return rest_ok(std::move(out));
        }));

  r.add("DELETE", path("/products/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!may_manage(ctx)) return rest_forbidden("restaurant.manage");
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return not_found("product");
          auto st = erase_record(app, company_key(ctx, kProductKind, id), "product_not_found");
          if (!st.ok()) return rest_error(st.error());
          return rest_ok(json::object{{"id", id}, {"deleted", true}});
        }));
}

// ---- Option groups -------------------------------------------------------------------------------------

// The group members present in `body` into `out`. `options` elements without an `id` get one from
// `new_ids` (generated before the write transaction); elements with an `id` keep it, checked against the
// stored group by the caller.
core::Status option_group_fields(const json::object& body, bool create, json::object& out, App& app) {
  if (create || body.contains("name")) {
    auto name = name_field(body);
    if (!name) return name.error();
    out["name"] = *name;
  }
  for (std::string_view key : {"minSelect", "maxSelect"}) {
    auto n = core::optional_int(body, key);
    if (!n) return n.error();
    if (*n) out[key] = **n;
  }
  auto* opts = body.if_contains("options");
  if (!opts || opts->is_null()) return {};
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
    options.emplace_back(json::object{{"id", id->value_or(core::make_id("opt_", app.random))},
                                      {"name", *name},
                                      {"priceDeltaMinor", delta->value_or(0)}});
  }
  out["options"] = std::move(options);
  return {};
}

// Option ids named by the client must be ones the group had (or, on create, none at all).
core::Status check_option_ids(const json::object& changes, const json::object& stored,
                              const std::vector<std::string>& generated) {
  auto* opts = changes.if_contains("options");
  if (!opts) return {};
  std::vector<std::string> known;
  for (auto& o : option_group_from_record(stored).options) known.push_back(o.id);
  std::vector<std::string> seen;
  for (auto& o : opts->get_array()) {
    std::string id = record::str(o.get_object(), "id");
    bool is_new = std::find(generated.begin(), generated.end(), id) != generated.end();
    if (!is_new && std::find(known.begin(), known.end(), id) == known.end())
      return core::make_error("invalid_field", "option '" + id + "' is not an option of this group");
    if (std::find(seen.begin(), seen.end(), id) != seen.end())
      return core::make_error("invalid_field", "option '" + id + "' is listed twice");
    seen.push_back(id);
  }
  return {};
}

// Ids option_group_fields generated (the members the body did not name).
std::vector<std::string> generated_ids(const json::object& body, const json::object& changes) {
  std::vector<std::string> out;
  auto* given = body.if_contains("options");
  auto* opts = changes.if_contains("options");
  if (!given || !opts) return out;
  auto& in = given->get_array();
  auto& made = opts->get_array();
  for (std::size_t i = 0; i < made.size() && i < in.size(); ++i)
    if (!in[i].get_object().contains("id") || in[i].get_object().at("id").is_null())
      out.push_back(record::str(made[i].get_object(), "id"));
  return out;
}

void register_option_group_routes(App& app) {
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
          if (!is_key_segment(id)) return not_found("option_group");
          auto rec = get_record(app, company_key(ctx, kOptionGroupKind, id));
          if (!rec) return rest_error(rec.error());
          if (!*rec) return not_found("option_group");
          return rest_ok(std::move(**rec));
        }));

  r.add("POST", path(prefix), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!may_manage(ctx)) return rest_forbidden("restaurant.manage");
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          std::string now = now_text(app);
          json::object rec{{"id", core::make_id("opg_", app.random)},
                           {"name", ""},
                           {"minSelect", 0},
                           {"maxSelect", 1},
                           {"options", json::array()}};
          auto st = option_group_fields(*body, true, rec, app);
          if (!st.ok()) return rest_error(st.error());
          st = check_option_ids(rec, json::object{}, generated_ids(*body, rec));
          if (!st.ok()) return rest_error(st.error());
          st = menu::validate_option_group(option_group_from_record(rec));
          if (!st.ok()) return rest_error(st.error());
          rec["createdAt"] = now;
          rec["updatedAt"] = now;
          auto put = put_record(app, company_key(ctx, kOptionGroupKind, record::str(rec, "id")), rec);
          if (!put.ok()) return rest_error(put.error());
          return rest_ok(std::move(rec), 201);
        }));

  r.add("PATCH", path(prefix + "/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!may_manage(ctx)) return rest_forbidden("restaurant.manage");
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return not_found("option_group");
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          json::object changes;
          auto st = option_group_fields(*body, false, changes, app);
          if (!st.ok()) return rest_error(st.error());
          std::vector<std::string> generated = generated_ids(*body, changes);
          changes["updatedAt"] = now_text(app);
          json::object out;
          auto updated = update_record(
              app, company_key(ctx, kOptionGroupKind, id), "option_group_not_found",
              [&](json::object& rec) -> core::Status {
                CORE_TRY(check_option_ids(changes, rec, generated));
                for (auto& [k, v] : changes) rec[k] = v;
                return menu::validate_option_group(option_group_from_record(rec));
              },
              out);
          if (!updated.ok()) return rest_error(updated.error());
          return rest_ok(std::move(out));
        }));

  // Deleting a group also takes it off every product that offered it, in the same transaction.
  r.add("DELETE", path(prefix + "/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!may_manage(ctx)) return rest_forbidden("restaurant.manage");
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return not_found("option_group");
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
        }));
}

}  // namespace

void register_products(App& app) {
  register_product_routes(app);
  register_option_group_routes(app);
}

}  // namespace edge::restaurant
