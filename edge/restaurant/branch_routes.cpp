// Branches (docs/restaurant-api.md, "Branches"): create, list (paged, picker order), read and patch. Branches
// are never deleted: inactive ones stay in history.

#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/idempotency.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"
#include "native/time/zone.h"

namespace edge::restaurant {
namespace {

constexpr std::size_t kMaxAddressChars = 500;

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
          return paged(req, out);
        }));
  r.add("POST", path("/branches"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          if (!ctx.principal.allows("restaurant.write")) return rest_forbidden("restaurant.manage");
          IdempotentCreate idem;
          if (auto answered = idem.begin(app, req, ctx, "POST /branches", "")) return std::move(*answered);
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
          return create_record(app, idem, company_key(ctx, "branch", record::str(rec, "id")), rec);
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

}  // namespace edge::restaurant
