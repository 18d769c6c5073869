#pragma once
// Helpers shared by the restaurant route files (edge/restaurant/*_routes.cpp): paths, request members that
// every resource reads the same way (names, amounts, day keys), paging and the branch's business date.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/date.h"
#include "core/json.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/platform/company_auth.h"
#include "edge/platform/paging.h"
#include "edge/restaurant/restaurant_http.h"

namespace edge::restaurant {

namespace json = core::json;

inline constexpr std::string_view kBase = "/api/restaurant/companies/{slug}";
inline constexpr std::size_t kMaxNameChars = 200;
inline constexpr std::string_view kDefaultTimeZone = "Europe/Istanbul";

// kBase + rest: the router pattern of a restaurant path.
std::string path(std::string_view rest);

// The app clock's now as an ISO 8601 UTC timestamp with milliseconds.
std::string now_text(App& app);

// A `name` member: a string, trimmed, 1..200 characters (`missing_field` / `invalid_field`).
core::Result<std::string> name_field(const json::object& body);

// An amount member in minor units. A non-integer number (12.5) is `invalid_amount`, another type
// `invalid_field`; missing or null is `missing_field` when required, nullopt otherwise.
core::Result<std::optional<std::int64_t>> amount_field(const json::object& body, std::string_view key,
                                                       bool required);

// A `vatRateBps` member: an integer. A fraction (0.2, 20.5) is a rate written the wrong way, so it is
// `vat_rate_invalid`; another type `invalid_field`; missing or null `missing_field` when required. The range
// (0..10000) is the core's check (core::validate_vat_rate_bps).
core::Result<std::optional<std::int64_t>> vat_rate_field(const json::object& body, bool required);

// Sorts branches in picker order: `order`, then name, then id.
void sort_for_picker(std::vector<json::object>& branches);

// A `YYYY-MM-DD` query parameter, nullopt when absent. Errors: `invalid_date`.
core::Result<std::optional<core::CivilDate>> day_query(const Request& req, std::string_view name);

// `v` as JSON, null when absent.
json::value opt_json(const std::optional<std::int64_t>& v);

// The page of `all` that `limit`/`skip` select, as `{"data": [...]}` with the full count in
// X-Total-Count; 422 `invalid_field` for bad paging.
Response paged(const Request& req, const std::vector<json::object>& all);

// The branch's IANA zone (Europe/Istanbul when unset).
std::string branch_time_zone(const json::object& branch);

// The branch's current business date: its local time now and its dayCutoffHour.
core::Result<core::CivilDate> current_business_date(App& app, const json::object& branch);

// The business date of the instant `unix_ms` at the branch.
core::Result<core::CivilDate> business_date_at(const json::object& branch, std::int64_t unix_ms);

// The branch's local calendar date now (no cutoff): "today" for obligations such as due dates.
core::Result<core::CivilDate> current_calendar_date(App& app, const json::object& branch);

// The branch a read names in `?branchId=`: nullopt when absent; 404 `branch_not_found` when it is unknown,
// of another company or not visible to the caller.
core::Result<std::optional<json::object>> branch_query(App& app, const Request& req,
                                                       const CompanyContext& ctx);

// A write whose JSON body names its branch (income, expenses, orders, shifts), checked in this order: the
// body (400 invalid_json / invalid_body), `branchId` (422 missing_field / invalid_field), the caller's write
// permission on that branch (403 forbidden_branch, before the lookup, so a branch-limited token learns
// nothing of other branches), the branch itself (404 branch_not_found).
struct BranchWrite {
  json::object body;
  std::string branchId;
  json::object branch;
};
core::Result<BranchWrite> read_branch_write(App& app, const Request& req, const CompanyContext& ctx);

// Route registration, one function per file: branch_routes.cpp, catalog_routes.cpp, income_routes.cpp, ...
void register_branches(App& app);
void register_catalog(App& app);
void register_income(App& app);
void register_expenses(App& app);
void register_payables(App& app);
void register_products(App& app);
void register_option_groups(App& app);
void register_orders(App& app);
void register_shifts(App& app);
void register_reports(App& app);
void register_overview(App& app);

}  // namespace edge::restaurant
