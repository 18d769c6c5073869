#include "edge/restaurant/restaurant_routes.h"

#include <algorithm>
#include <tuple>

#include "core/date.h"
#include "core/id.h"
#include "core/restaurant/income.h"
#include "core/restaurant/text_field.h"
#include "edge/app.h"
#include "edge/platform/paging.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"
#include "native/time/zone.h"

namespace edge::restaurant {
namespace {

constexpr std::size_t kMaxAddressChars = 500;

// ---- Branches ------------------------------------------------------------------------------------

// Applies the branch members present in `body` to `rec` (all optional here; `name` required on create is
// checked by the caller).
core::Status apply_branch_fields(const json::object& body, json::object& rec) {
  if (body.contains("name")) {
    auto name = name_field(body);
    if (!name) return name.error();
    rec["name"] = *name;
  }
  if (auto* a = body.if_contains("address")) {
    if (a->is_null()) {
      rec["address"] = nullptr;
    } else {
      auto address = core::require_string(body, "address");
      if (!address) return address.error();
      if (address->size() > kMaxAddressChars * 4)
        return core::make_error("invalid_field", "field 'address' is too long");
      rec["address"] = *address;
    }
  }
  auto cutoff = core::optional_int(body, "dayCutoffHour");
  if (!cutoff) return cutoff.error();
  if (*cutoff) {
    if (**cutoff < 0 || **cutoff > 23)
      return core::make_error("invalid_cutoff_hour", "field 'dayCutoffHour' must be an integer from 0 to 23");
    rec["dayCutoffHour"] = **cutoff;
  }
  auto order = core::optional_int(body, "order");
  if (!order) return order.error();
  if (*order) rec["order"] = **order;
  auto active = core::optional_bool(body, "active");
  if (!active) return active.error();
  if (*active) rec["active"] = **active;
  auto tz = core::optional_string(body, "timezone");
  if (!tz) return tz.error();
  if (*tz) {
    auto valid = native::validate_time_zone(**tz);
    if (!valid.ok())
      return core::make_error("invalid_time_zone",
                              "field 'timezone' must name an IANA time zone such as 'Europe/Istanbul'");
    rec["timezone"] = **tz;
  }
  return {};
}

}  // namespace

void register_branches(App& app) {
  Router& r = app.router;
  r.add("GET", path("/branches"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          bool active_only = false;
          if (auto a = req.query_param("activeOnly")) {
            if (*a == "true" || *a == "1")
              active_only = true;
            else if (*a != "false" && *a != "0")
              return rest_error(422, "invalid_field", "query parameter 'activeOnly' must be true or false");
          }
          auto all = list_records(app, "c/" + ctx.company.id + "/branch/");
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& b : *all) {
            if (!may_view_branch(ctx, record::str(b, "id"))) continue;
            if (active_only && !record::boolean(b, "active")) continue;
            out.push_back(std::move(b));
          }
          sort_for_picker(out);
          json::array arr;
          for (auto& b : out) arr.emplace_back(std::move(b));
          return rest_ok(std::move(arr));
        }));
  r.add("POST", path("/branches"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!ctx.principal.allows("restaurant.write")) return rest_forbidden("restaurant.manage");
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          if (!body->contains("name") || body->at("name").is_null())
            return rest_error(core::make_error("missing_field", "field 'name' is required"));
          std::string now = now_text(app);
          json::object rec{{"id", core::make_id("br_", app.random)},
                           {"name", ""},
                           {"address", nullptr},
                           {"dayCutoffHour", core::kDefaultDayCutoffHour},
                           {"order", 0},
                           {"active", true},
                           {"timezone", kDefaultTimeZone},
                           {"createdAt", now},
                           {"updatedAt", now}};
          auto st = apply_branch_fields(*body, rec);
          if (!st.ok()) return rest_error(st.error());
          auto put = put_record(app, company_key(ctx, "branch", record::str(rec, "id")), rec);
          if (!put.ok()) return rest_error(put.error());
          return rest_ok(std::move(rec), 201);
        }));
  r.add("GET", path("/branches/{id}"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          std::string id(req.param("id"));
          auto b = load_branch(app, ctx, id);
          if (!b || !may_view_branch(ctx, id)) return rest_error(404, "branch_not_found", "branch not found");
          return rest_ok(std::move(*b));
        }));
  r.add("PATCH", path("/branches/{id}"),
        restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          std::string id(req.param("id"));
          if (!may_write_branch(ctx, id)) return rest_forbidden_branch(id);
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          // Validate once outside the transaction so the error does not depend on the stored record.
          json::object scratch;
          auto st = apply_branch_fields(*body, scratch);
          if (!st.ok()) return rest_error(st.error());
          if (!is_key_segment(id)) return rest_error(404, "branch_not_found", "branch not found");
          std::string now = now_text(app);
          json::object out;
          auto updated = update_record(
              app, company_key(ctx, "branch", id), "branch_not_found",
              [&](json::object& rec) -> core::Status {
                for (auto& [k, v] : scratch) rec[k] = v;
                rec["updatedAt"] = now;
                return {};
              },
              out);
          if (!updated.ok()) {
            if (updated.error().code == "branch_not_found")
              return rest_error(404, "branch_not_found", "branch not found");
            return rest_error(updated.error());
          }
          return rest_ok(std::move(out));
        }));
}

// ---- Categories, vendors (per company) and tables (per branch) ------------------------------------

namespace {

struct CatalogKind {
  std::string_view path;       // "/categories"
  std::string_view key;        // "category"
  std::string_view id_prefix;  // "cat_"
  std::string_view not_found;  // "category_not_found"
  bool per_branch = false;     // tables: a branchId, writes checked against the branch
};

void register_catalog_kind(App& app, CatalogKind kind) {
  Router& r = app.router;
  auto not_found = [kind] { return rest_error(404, kind.not_found, std::string(kind.key) + " not found"); };
  // The write check for a record of this kind: company-wide kinds need restaurant.manage, tables the branch.
  auto may_write = [kind](const CompanyContext& ctx, std::string_view branch_id) {
    return kind.per_branch ? may_write_branch(ctx, branch_id) : ctx.principal.allows("restaurant.write");
  };

  r.add("GET", path(kind.path),
        restaurant_route(app, "restaurant.view", [&app, kind](Request& req, const CompanyContext& ctx) {
          auto branch = req.query_param("branchId");
          auto all = list_records(app, "c/" + ctx.company.id + "/" + std::string(kind.key) + "/");
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& rec : *all) {
            if (kind.per_branch) {
              std::string b = record::str(rec, "branchId");
              if (!may_view_branch(ctx, b) || (branch && *branch != b)) continue;
            }
            out.push_back(std::move(rec));
          }
          std::stable_sort(out.begin(), out.end(), [](const json::object& a, const json::object& b) {
            return std::tuple(record::str(a, "name"), record::str(a, "id")) <
                   std::tuple(record::str(b, "name"), record::str(b, "id"));
          });
          return paged(req, out);
        }));

  r.add("POST", path(kind.path),
        restaurant_route(app, "", [&app, kind, may_write](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          std::string branch_id;
          if (kind.per_branch) {
            auto b = core::require_string(*body, "branchId");
            if (!b) return rest_error(b.error());
            branch_id = *b;
          }
          if (!may_write(ctx, branch_id))
            return kind.per_branch ? rest_forbidden_branch(branch_id) : rest_forbidden("restaurant.manage");
          auto name = name_field(*body);
          if (!name) return rest_error(name.error());
          if (kind.per_branch) {
            auto b = load_branch(app, ctx, branch_id);
            if (!b) return rest_error(b.error());
          }
          std::string now = now_text(app);
          json::object rec{{"id", core::make_id(kind.id_prefix, app.random)}};
          if (kind.per_branch) rec["branchId"] = branch_id;
          rec["name"] = *name;
          rec["createdAt"] = now;
          rec["updatedAt"] = now;
          auto put = put_record(app, company_key(ctx, kind.key, record::str(rec, "id")), rec);
          if (!put.ok()) return rest_error(put.error());
          return rest_ok(std::move(rec), 201);
        }));

  // PATCH and DELETE: the record named by {id}, if it exists and the caller may write to it; otherwise the
  // response to send.
  auto writable = [&app, kind, may_write, not_found](Request& req, const CompanyContext& ctx,
                                                     std::string& key) -> std::optional<Response> {
    std::string id(req.param("id"));
    if (!is_key_segment(id)) return not_found();
    key = company_key(ctx, kind.key, id);
    auto existing = get_record(app, key);
    if (!existing) return rest_error(existing.error());
    if (!*existing) return not_found();
    std::string branch_id = record::str(**existing, "branchId");
    if (!may_write(ctx, branch_id))
      return kind.per_branch ? rest_forbidden_branch(branch_id) : rest_forbidden("restaurant.manage");
    return std::nullopt;
  };

  r.add("PATCH", path(std::string(kind.path) + "/{id}"),
        restaurant_route(app, "", [&app, kind, writable, not_found](Request& req, const CompanyContext& ctx) {
          std::string key;
          if (auto refused = writable(req, ctx, key)) return std::move(*refused);
          auto body = core::parse_json_object(req.body);
          if (!body) return rest_error(body.error());
          std::optional<std::string> name;
          if (body->contains("name")) {
            auto n = name_field(*body);
            if (!n) return rest_error(n.error());
            name = *n;
          }
          std::string now = now_text(app);
          json::object out;
          auto st = update_record(
              app, key, kind.not_found,
              [&](json::object& rec) -> core::Status {
                if (name) rec["name"] = *name;
                rec["updatedAt"] = now;
                return {};
              },
              out);
          if (!st.ok()) return st.error().code == kind.not_found ? not_found() : rest_error(st.error());
          return rest_ok(std::move(out));
        }));

  r.add("DELETE", path(std::string(kind.path) + "/{id}"),
        restaurant_route(app, "", [&app, kind, writable, not_found](Request& req, const CompanyContext& ctx) {
          std::string key;
          if (auto refused = writable(req, ctx, key)) return std::move(*refused);
          auto st = erase_record(app, key, kind.not_found);
          if (!st.ok()) return st.error().code == kind.not_found ? not_found() : rest_error(st.error());
          return rest_ok(json::object{{"id", std::string(req.param("id"))}, {"deleted", true}});
        }));
}

}  // namespace

void register_catalog(App& app) {
  register_catalog_kind(app, {"/categories", "category", "cat_", "category_not_found", false});
  register_catalog_kind(app, {"/vendors", "vendor", "ven_", "vendor_not_found", false});
  register_catalog_kind(app, {"/tables", "table", "tbl_", "table_not_found", true});
}

// ---- Income ----------------------------------------------------------------------------------------

void register_income(App& app) {
  Router& r = app.router;
  r.add("POST", path("/income"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          auto write = read_branch_write(app, req, ctx);
          if (!write) return rest_error(write.error());
          const json::object& body = write->body;
          const std::string& branch_id = write->branchId;
          auto today = current_business_date(app, write->branch);
          if (!today) return rest_error(today.error());

          core::restaurant::IncomeInput in;
          auto day = core::optional_string(body, "businessDate");
          if (!day) return rest_error(day.error());
          if (*day) {
            auto parsed = core::parse_day_key(**day);
            if (!parsed) return rest_error(parsed.error());
            in.businessDate = *parsed;
          } else {
            in.businessDate = *today;
          }
          auto channel = core::require_string(body, "channel");
          if (!channel) return rest_error(channel.error());
          in.channel = *channel;
          auto amount = [&](std::string_view key, bool required) {
            return amount_field(body, key, required);
          };
          auto gross = amount("grossMinor", true);
          if (!gross) return rest_error(gross.error());
          in.grossMinor = **gross;
          auto commission = amount("commissionMinor", false);
          if (!commission) return rest_error(commission.error());
          in.commissionMinor = commission->value_or(0);
          auto z = amount("zReportMinor", false);
          if (!z) return rest_error(z.error());
          in.zReportMinor = *z;

          auto row = core::restaurant::validate_income(in, *today);
          if (!row) return rest_error(row.error());

          std::string day_key = core::format_day_key(row->businessDate);
          std::string key = company_key(ctx, "income", branch_id + "/" + day_key + "/" + row->channel);
          std::string new_id = core::make_id("inc_", app.random);
          std::string now = now_text(app);
          json::object rec{{"id", new_id},
                           {"branchId", branch_id},
                           {"businessDate", day_key},
                           {"channel", row->channel},
                           {"grossMinor", row->grossMinor},
                           {"commissionMinor", row->commissionMinor},
                           {"zReportMinor", opt_json(row->zReportMinor)},
                           {"netMinor", row->netMinor},
                           {"zReportDiffMinor", opt_json(row->zReportDiffMinor)},
                           {"createdAt", now},
                           {"updatedAt", now}};
          json::object stored;
          bool created = false;
          store::Table t = app.restaurant_table;
          auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
            stored = rec;
            created = true;
            if (auto old = txn.get(t, key)) {
              if (auto o = core::parse_json_object(*old)) {
                stored["id"] = record::str(*o, "id");
                stored["createdAt"] = record::str(*o, "createdAt");
                created = false;
              }
            }
            txn.put(t, key, core::to_json(stored));
            return {};
          });
          if (!st.ok()) return rest_error(st.error());
          return rest_ok(std::move(stored), created ? 201 : 200);
        }));

  r.add("GET", path("/income"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto from = day_query(req, "from");
          if (!from) return rest_error(from.error());
          auto to = day_query(req, "to");
          if (!to) return rest_error(to.error());
          auto branch = req.query_param("branchId");
          std::string prefix = "c/" + ctx.company.id + "/income/";
          if (branch) {
            if (!is_key_segment(*branch) || !may_view_branch(ctx, *branch))
              return rest_error(404, "branch_not_found", "branch not found");
            auto b = load_branch(app, ctx, *branch);
            if (!b) return rest_error(b.error());
            prefix += *branch + "/";
          }
          auto all = list_records(app, prefix);
          if (!all) return rest_error(all.error());
          std::vector<json::object> out;
          for (auto& rec : *all) {
            if (!may_view_branch(ctx, record::str(rec, "branchId"))) continue;
            auto d = core::parse_day_key(record::str(rec, "businessDate"));
            if (!d) continue;
            if ((*from && *d < **from) || (*to && *d > **to)) continue;
            out.push_back(std::move(rec));
          }
          std::stable_sort(out.begin(), out.end(), [](const json::object& a, const json::object& b) {
            return std::tuple(record::str(a, "businessDate"), record::str(a, "branchId"),
                              record::str(a, "channel")) < std::tuple(record::str(b, "businessDate"),
                                                                      record::str(b, "branchId"),
                                                                      record::str(b, "channel"));
          });
          return paged(req, out);
        }));
}

}  // namespace edge::restaurant

namespace edge {

void register_restaurant_routes(App& app) {
  using namespace restaurant;
  register_branches(app);
  register_catalog(app);
  register_income(app);
  register_expenses(app);
  register_payables(app);
  register_products(app);
  register_orders(app);
  register_shifts(app);
  register_reports(app);
  register_overview(app);
}

}  // namespace edge
