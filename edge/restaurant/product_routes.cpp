// Products of the menu, shared by every branch of a company (docs/restaurant-orders.md, "Products"). Option
// groups: option_group_routes.cpp.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/id.h"
#include "core/money.h"
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

// A product's VAT rate: vat_rate_field, and 0..10000 (`vat_rate_invalid`) checked here, as a product is
// stored without going through another core rule.
core::Result<std::optional<std::int64_t>> rate_field(const json::object& body, bool required) {
  auto rate = vat_rate_field(body, required);
  if (rate && *rate) CORE_TRY(core::validate_vat_rate_bps(**rate));
  return rate;
}

// The records a product body names, checked in the write transaction that stores the product (so a
// category or option group deleted meanwhile is never referenced).
struct ProductRefs {
  std::optional<std::string> categoryId;                   // a category named (not null)
  std::optional<std::vector<std::string>> optionGroupIds;  // the list sent
};

// Validates the product members present in `body` into `out` (required ones on create) and collects the
// references into `refs`. Errors: missing_field, invalid_field (also an option group listed twice),
// invalid_amount, vat_rate_invalid.
core::Status product_fields(const json::object& body, bool create, json::object& out, ProductRefs& refs) {
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
      refs.categoryId = *id;
      out["categoryId"] = *id;
    }
  }
  auto groups = core::optional_string_array(body, "optionGroupIds");
  if (!groups) return groups.error();
  if (*groups) {
    const std::vector<std::string>& ids = **groups;
    for (auto it = ids.begin(); it != ids.end(); ++it)
      if (std::find(ids.begin(), it, *it) != it)
        return core::make_error("invalid_field", "field 'optionGroupIds' lists '" + *it + "' twice");
    refs.optionGroupIds = ids;
    out["optionGroupIds"] = record::array_of(ids);
  }
  auto active = core::optional_bool(body, "active");
  if (!active) return active.error();
  if (*active) out["active"] = **active;
  return {};
}

// The references exist in `txn`. Errors: `category_not_found`, then `option_group_not_found`.
core::Status check_refs(const store::ReadTxn& txn, store::Table t, const CompanyContext& ctx,
                        const ProductRefs& refs) {
  if (const auto& id = refs.categoryId;
      id && (!is_key_segment(*id) || !txn.get(t, company_key(ctx, "category", *id))))
    return core::make_error("category_not_found", "category '" + *id + "' not found");
  if (refs.optionGroupIds)
    for (const std::string& id : *refs.optionGroupIds)
      if (!is_key_segment(id) || !txn.get(t, company_key(ctx, kOptionGroupKind, id)))
        return core::make_error("option_group_not_found", "option group '" + id + "' not found");
  return {};
}

Response create_product(App& app, Request& req, const CompanyContext& ctx) {
  if (!may_manage_menu(ctx)) return rest_forbidden("restaurant.manage");
  IdempotentCreate idem;
  if (auto answered = idem.begin(app, req, ctx, "POST /products", "")) return std::move(*answered);
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
  ProductRefs refs;
  auto st = product_fields(*body, true, rec, refs);
  if (!st.ok()) return rest_error(st.error());
  store::Table t = app.restaurant_table;
  auto answer = idem.write(app, [&](store::WriteTxn& txn) -> core::Result<Response> {
    CORE_TRY(check_refs(txn, t, ctx, refs));
    txn.put(t, company_key(ctx, kProductKind, record::str(rec, "id")), core::to_json(rec));
    return rest_ok(rec, 201);
  });
  if (!answer) return rest_error(answer.error());
  return std::move(*answer);
}

Response patch_product(App& app, Request& req, const CompanyContext& ctx) {
  if (!may_manage_menu(ctx)) return rest_forbidden("restaurant.manage");
  std::string id(req.param("id"));
  if (!is_key_segment(id)) return menu_not_found("product");
  auto body = core::parse_json_object(req.body);
  if (!body) return rest_error(body.error());
  json::object changes;
  ProductRefs refs;
  auto st = product_fields(*body, false, changes, refs);
  if (!st.ok()) return rest_error(st.error());
  changes["updatedAt"] = now_text(app);
  store::Table t = app.restaurant_table;
  json::object out;
  auto updated = update_record(
      app, company_key(ctx, kProductKind, id), "product_not_found",
      [&](json::object& rec, const store::ReadTxn& txn) -> core::Status {
        CORE_TRY(check_refs(txn, t, ctx, refs));
        for (auto& [k, v] : changes) rec[k] = v;
        return {};
      },
      out);
  if (!updated.ok()) return rest_error(updated.error());
  return rest_ok(std::move(out));
}

}  // namespace

void register_products(App& app) {
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
          if (!is_key_segment(id)) return menu_not_found("product");
          auto rec = get_record(app, company_key(ctx, kProductKind, id));
          if (!rec) return rest_error(rec.error());
          if (!*rec) return menu_not_found("product");
          return rest_ok(std::move(**rec));
        }));

  r.add("POST", path("/products"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          return create_product(app, req, ctx);
        }));

  r.add("PATCH", path("/products/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          return patch_product(app, req, ctx);
        }));

  r.add("DELETE", path("/products/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!may_manage_menu(ctx)) return rest_forbidden("restaurant.manage");
          std::string id(req.param("id"));
          if (!is_key_segment(id)) return menu_not_found("product");
          auto st = erase_record(app, company_key(ctx, kProductKind, id), "product_not_found");
          if (!st.ok()) return rest_error(st.error());
          return rest_ok(json::object{{"id", id}, {"deleted", true}});
        }));
}

}  // namespace edge::restaurant
