#include "edge/restaurant/restaurant_common.h"

#include <algorithm>
#include <tuple>

#include "core/restaurant/text_field.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/restaurant_store.h"
#include "native/time/zone.h"

namespace edge::restaurant {

std::string path(std::string_view rest) {
  return std::string(kBase) + std::string(rest);
}

std::string now_text(App& app) {
  return core::format_timestamp(app.clock.now_ms());
}

core::Result<std::string> name_field(const json::object& body) {
  auto name = core::require_string(body, "name");
  if (!name) return name.error();
  return core::restaurant::trimmed_text_field(*name, "name", kMaxNameChars);
}

core::Result<std::optional<std::int64_t>> amount_field(const json::object& body, std::string_view key,
                                                       bool required) {
  auto* v = body.if_contains(key);
  if (!v || v->is_null()) {
    if (required) return core::make_error("missing_field", "field '" + std::string(key) + "' is required");
    return std::optional<std::int64_t>();
  }
  auto n = core::require_int(body, key);
  if (!n) {
    if (v->is_number())
      return core::make_error("invalid_amount",
                              "field '" + std::string(key) + "' must be a whole number of minor units");
    return n.error();
  }
  return std::optional<std::int64_t>(*n);
}

core::Result<std::optional<std::int64_t>> vat_rate_field(const json::object& body, bool required) {
  auto rate = amount_field(body, "vatRateBps", required);
  if (!rate && rate.error().code == "invalid_amount")
    return core::make_error("vat_rate_invalid",
                            "field 'vatRateBps' must be whole basis points from 0 to 10000");
  return rate;
}

void sort_for_picker(std::vector<json::object>& branches) {
  std::stable_sort(branches.begin(), branches.end(), [](const json::object& a, const json::object& b) {
    return std::tuple(record::num(a, "order"), record::str(a, "name"), record::str(a, "id")) <
           std::tuple(record::num(b, "order"), record::str(b, "name"), record::str(b, "id"));
  });
}

core::Result<std::optional<core::CivilDate>> day_query(const Request& req, std::string_view name) {
  auto text = req.query_param(name);
  if (!text) return std::optional<core::CivilDate>();
  auto d = core::parse_day_key(*text);
  if (!d) return d.error();
  return std::optional<core::CivilDate>(*d);
}

json::value opt_json(const std::optional<std::int64_t>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

Response paged(const Request& req, const std::vector<json::object>& all) {
  auto paging = parse_paging(req);
  if (!paging) return rest_error(paging.error());
  json::array out;
  for (auto& item : paging->apply(all)) out.emplace_back(item);
  Response r = rest_ok(std::move(out));
  r.set_header("X-Total-Count", std::to_string(all.size()));
  return r;
}

std::string branch_time_zone(const json::object& branch) {
  std::string tz = record::str(branch, "timezone");
  return tz.empty() ? std::string(kDefaultTimeZone) : tz;
}

core::Result<core::CivilDate> business_date_at(const json::object& branch, std::int64_t unix_ms) {
  auto local = native::local_time(branch_time_zone(branch), unix_ms);
  if (!local) return local.error();
  auto cutoff = record::opt_num(branch, "dayCutoffHour").value_or(core::kDefaultDayCutoffHour);
  return core::business_date(*local, static_cast<int>(cutoff));
}

core::Result<core::CivilDate> current_business_date(App& app, const json::object& branch) {
  return business_date_at(branch, app.clock.now_ms());
}

core::Result<core::CivilDate> current_calendar_date(App& app, const json::object& branch) {
  auto local = native::local_time(branch_time_zone(branch), app.clock.now_ms());
  if (!local) return local.error();
  return local->date;
}

core::Result<std::optional<json::object>> branch_query(App& app, const Request& req,
                                                       const CompanyContext& ctx) {
  auto id = req.query_param("branchId");
  if (!id) return std::optional<json::object>();
  if (!may_view_branch(ctx, *id)) return core::make_error("branch_not_found", "branch not found");
  auto b = load_branch(app, ctx, *id);
  if (!b) return b.error();
  return std::optional<json::object>(std::move(*b));
}

core::Result<BranchWrite> read_branch_write(App& app, const Request& req, const CompanyContext& ctx) {
  auto body = core::parse_json_object(req.body);
  if (!body) return body.error();
  auto branch_id = core::require_string(*body, "branchId");
  if (!branch_id) return branch_id.error();
  if (!may_write_branch(ctx, *branch_id))
    return core::make_error("forbidden_branch", "access token may not write to branch '" + *branch_id + "'");
  auto branch = load_branch(app, ctx, *branch_id);
  if (!branch) return branch.error();
  return BranchWrite{std::move(*body), std::move(*branch_id), std::move(*branch)};
}

}  // namespace edge::restaurant
