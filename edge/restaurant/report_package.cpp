#include "edge/restaurant/report_package.h"

#include <algorithm>
#include <map>

#include "core/restaurant/csv.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/expense_record.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_store.h"
#include "native/time/zone.h"

namespace edge::restaurant {
namespace {

constexpr std::size_t kMaxTopVendors = 100;

core::Result<core::CivilDate> required_day(const Request& req, std::string_view name) {
  auto d = day_query(req, name);
  if (!d) return d.error();
  if (!*d)
    return core::make_error("missing_field", "query parameter '" + std::string(name) + "' is required");
  return **d;
}

std::vector<std::string> split_ids(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    auto comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (!part.empty()) out.emplace_back(part);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

std::string name_of(const ReportPackage& p, const std::string& id) {
  auto it = std::lower_bound(p.names.begin(), p.names.end(), std::pair<std::string, std::string>{id, ""});
  return it != p.names.end() && it->first == id ? it->second : std::string();
}

json::array breakdown_json(const ReportPackage& p, const std::vector<core::restaurant::ReportBreakdown>& list,
                           bool with_income) {
  json::array out;
  for (const auto& b : list) {
    std::string name = name_of(p, b.id);
    json::object o{{"id", b.id},
                   {"name", name.empty() ? json::value(nullptr) : json::value(name)},
                   {"costs", costs_json(b.costs)}};
    if (with_income) o["income"] = income_totals_json(b.income);
    out.emplace_back(std::move(o));
  }
  return out;
}

}  // namespace

core::Result<ReportRequest> parse_report_request(App& app, const Request& req, const CompanyContext& ctx) {
  ReportRequest out;
  auto from = required_day(req, "from");
  if (!from) return from.error();
  auto to = required_day(req, "to");
  if (!to) return to.error();
  out.query.from = *from;
  out.query.to = *to;
  if (auto basis = req.query_param("basis")) {
    auto b = core::restaurant::parse_report_basis(*basis);
    if (!b) return b.error();
    out.query.basis = *b;
  }
  if (auto top = req.query_param("topVendors")) {
    std::size_t n = 0;
    bool digits = !top->empty() && top->size() <= 3 &&
                  std::all_of(top->begin(), top->end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits) n = std::stoul(std::string(*top));
    if (!digits || n > kMaxTopVendors)
      return core::make_error("invalid_field",
                              "query parameter 'topVendors' must be an integer from 0 to 100");
    out.query.topVendors = n;
  }
  if (auto food = req.query_param("foodCategoryIds")) out.query.foodCategoryIds = split_ids(*food);
  auto branch = branch_query(app, req, ctx);
  if (!branch) return branch.error();
  if (*branch) out.branchId = record::str(**branch, "id");
  if (out.query.to < out.query.from)
    return core::make_error("invalid_range", "'from' must not be after 'to'");
  return out;
}

core::Result<ReportPackage> build_report_package(App& app, const CompanyContext& ctx, ReportRequest request) {
  ReportPackage p;
  p.request = std::move(request);
  const std::string base = "c/" + ctx.company.id + "/";
  auto branches = list_records(app, base + "branch/");
  if (!branches) return branches.error();
  // The branches counted: visible to the caller, and the one asked for when branchId is given.
  std::map<std::string, std::string, std::less<>> zones;
  for (const auto& b : *branches) {
    std::string id = record::str(b, "id");
    p.names.emplace_back(id, record::str(b, "name"));
    if (!may_view_branch(ctx, id) || (p.request.branchId && *p.request.branchId != id)) continue;
    zones[id] = branch_time_zone(b);
  }
  for (std::string_view kind : {"category/", "vendor/"}) {
    auto records = list_records(app, base + std::string(kind));
    if (!records) return records.error();
    for (const auto& r : *records) p.names.emplace_back(record::str(r, "id"), record::str(r, "name"));
  }
  std::sort(p.names.begin(), p.names.end());

  std::vector<core::restaurant::ReportExpense> expenses;
  std::vector<core::restaurant::ReportIncome> income;
  store::Table t = app.restaurant_table;
  std::optional<core::Error> bad_record;
  // The share of the company's expenses the window and the branches select, guessed from the calendar:
  // the index pays below 30 % (bench/restaurant_load: a month of all branches, or a year of one of ten,
  // read through the index in a fifth to a half of a full scan's time; a year of all branches is faster
  // by the scan).
  const double days = static_cast<double>(core::days_between(p.request.query.from, p.request.query.to) + 1);
  const double share = std::min(1.0, days / 365.0) * static_cast<double>(zones.size()) /
                       static_cast<double>(std::max<std::size_t>(branches->size(), 1));
  const bool index_pays = share < 0.3;
  const std::string from = core::format_day_key(p.request.query.from);
  const std::string to = core::format_day_key(p.request.query.to);
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    expenses.clear();
    income.clear();
    // One stored expense into the report's input; false stops the scan on an unreadable paidAt.
    auto take = [&](std::string_view value) {
      // Parsed into a stack buffer: the record is read and dropped, so no heap allocation per record.
      unsigned char arena[4096];
      json::monotonic_resource memory(arena, sizeof arena);
      auto e = core::parse_json_object(value, &memory);
      if (!e) return true;
      std::string branch_id = record::str(*e, "branchId");
      auto zone = zones.find(branch_id);
      if (zone == zones.end()) return true;
      auto accrual = core::parse_day_key(record::str(*e, "accrualDate"));
      if (!accrual) return true;
      core::restaurant::ReportExpense r{branch_id,
                                        record::str(*e, "categoryId"),
                                        std::nullopt,
                                        *accrual,
                                        std::nullopt,
                                        record::num(*e, "grossMinor"),
                                        record::num(*e, "netMinor"),
                                        record::num(*e, "vatMinor"),
                                        record::num(*e, "costMinor")};
      if (std::string vendor = record::str(*e, "vendorId"); !vendor.empty()) r.vendorId = vendor;
      if (std::string paid = record::str(*e, "paidAt"); !paid.empty()) {
        auto ms = core::parse_timestamp(paid);
        auto local =
            ms ? native::local_time(zone->second, *ms) : core::Result<core::LocalDateTime>(ms.error());
        if (!local) {
          bad_record = local.error();
          return false;
        }
        r.paidDate = local->date;
      }
      expenses.push_back(std::move(r));
      return true;
    };
    if (index_pays) {
      // A small share of the data: only the window's expenses of the counted branches, through the index of
      // the basis's date. Over most of it, one sequential scan beats a lookup per expense.
      const bool accrual = p.request.query.basis == core::restaurant::ReportBasis::accrual;
      // The paid index is keyed by paidAt's UTC date, at most a day from the branch's local date: read a day
      // more on each side; build_report keeps exactly the window by the local date.
      const std::string first =
          accrual ? from : core::format_day_key(core::add_days(p.request.query.from, -1));
      const std::string last = accrual ? to : core::format_day_key(core::add_days(p.request.query.to, 1));
      for (const auto& [branch_id, zone] : zones) {
        std::string prefix =
            accrual ? accrual_prefix(ctx.company.id, branch_id) : paid_prefix(ctx.company.id, branch_id);
        bool ok = true;
        txn.scan(
            t, prefix,
            [&](std::string_view key, std::string_view) {
              if (key.substr(prefix.size(), 10) > last) return false;
              auto stored = txn.get(t, expense_key(ctx.company.id, key.substr(key.rfind('/') + 1)));
              return stored ? (ok = take(*stored)) : true;
            },
            prefix + first);
        if (!ok) break;
      }
    } else {
      txn.scan(t, base + "expense/", [&](std::string_view, std::string_view value) { return take(value); });
    }
    // Income rows are keyed by branch and business date: read each counted branch's window only.
    for (const auto& [branch_id, zone] : zones) {
      std::string prefix = base + "income/" + branch_id + "/";
      txn.scan(
          t, prefix,
          [&](std::string_view key, std::string_view value) {
            if (key.substr(prefix.size(), 10) > to) return false;
            auto i = core::parse_json_object(value);
            if (!i) return true;
            auto day = core::parse_day_key(record::str(*i, "businessDate"));
            if (!day) return true;
            income.push_back({branch_id, *day, record::num(*i, "grossMinor"),
                              record::num(*i, "commissionMinor"), record::num(*i, "netMinor")});
            return true;
          },
          prefix + from);
    }
    return {};
  });
  if (!st.ok()) return st.error();
  if (bad_record) return *bad_record;
  auto report = core::restaurant::build_report(expenses, income, p.request.query);
  if (!report) return report.error();
  p.report = std::move(*report);
  return p;
}

json::object costs_json(const core::restaurant::CostTotals& c) {
  return {{"grossMinor", c.grossMinor},
          {"netMinor", c.netMinor},
          {"vatMinor", c.vatMinor},
          {"costMinor", c.costMinor}};
}

json::object income_totals_json(const core::restaurant::IncomeTotals& i) {
  return {{"grossMinor", i.grossMinor}, {"commissionMinor", i.commissionMinor}, {"netMinor", i.netMinor}};
}

json::object report_json(const ReportPackage& p) {
  const auto& r = p.report;
  const auto& q = p.request.query;
  json::array months;
  for (const auto& m : r.months)
    months.emplace_back(json::object{
        {"month", m.month}, {"costs", costs_json(m.costs)}, {"income", income_totals_json(m.income)}});
  json::array food_ids;
  for (const auto& id : q.foodCategoryIds) food_ids.emplace_back(id);
  return {{"from", core::format_day_key(q.from)},
          {"to", core::format_day_key(q.to)},
          {"basis", core::restaurant::report_basis_name(q.basis)},
          {"branchId", p.request.branchId ? json::value(*p.request.branchId) : json::value(nullptr)},
          {"months", std::move(months)},
          {"totals", json::object{{"costs", costs_json(r.costs)}, {"income", income_totals_json(r.income)}}},
          {"byBranch", breakdown_json(p, r.byBranch, true)},
          {"byCategory", breakdown_json(p, r.byCategory, false)},
          {"byVendor", breakdown_json(p, r.byVendor, false)},
          {"topVendors", breakdown_json(p, r.topVendors, false)},
          {"foodCost", json::object{{"categoryIds", std::move(food_ids)},
                                    {"foodCostMinor", r.foodCost.foodCostMinor},
                                    {"incomeNetMinor", r.foodCost.incomeNetMinor},
                                    {"ratioBps", r.foodCost.ratioBps ? json::value(*r.foodCost.ratioBps)
                                                                     : json::value(nullptr)}}}};
}

std::string report_csv(const ReportPackage& p) {
  using core::restaurant::csv_field;
  using core::restaurant::csv_text_field;
  std::string out =
      "section,key,name,costGrossMinor,costNetMinor,costVatMinor,costMinor,incomeGrossMinor,"
      "incomeCommissionMinor,incomeNetMinor\r\n";
  auto row = [&](std::string_view section, std::string_view key, std::string_view name,
                 const core::restaurant::CostTotals& c, const core::restaurant::IncomeTotals* i) {
    out += std::string(section) + "," + csv_field(key) + "," + csv_text_field(name);
    for (auto v : {c.grossMinor, c.netMinor, c.vatMinor, c.costMinor}) out += "," + std::to_string(v);
    for (auto v : {i ? i->grossMinor : 0, i ? i->commissionMinor : 0, i ? i->netMinor : 0})
      out += "," + (i ? std::to_string(v) : std::string());
    out += "\r\n";
  };
  for (const auto& m : p.report.months) row("month", m.month, "", m.costs, &m.income);
  row("total", core::format_day_key(p.request.query.from) + ".." + core::format_day_key(p.request.query.to),
      "", p.report.costs, &p.report.income);
  for (const auto& b : p.report.byBranch) row("branch", b.id, name_of(p, b.id), b.costs, &b.income);
  for (const auto& b : p.report.byCategory) row("category", b.id, name_of(p, b.id), b.costs, nullptr);
  for (const auto& b : p.report.byVendor) row("vendor", b.id, name_of(p, b.id), b.costs, nullptr);
  for (const auto& b : p.report.topVendors) row("topVendor", b.id, name_of(p, b.id), b.costs, nullptr);
  const auto& f = p.report.foodCost;
  // foodCost: the food cost in costMinor, the income net in incomeNetMinor, the ratio (bps) as the key.
  out += "foodCost," + (f.ratioBps ? std::to_string(*f.ratioBps) : std::string()) + ",,,,," +
         std::to_string(f.foodCostMinor) + ",,," + std::to_string(f.incomeNetMinor) + "\r\n";
  return out;
}

}  // namespace edge::restaurant
