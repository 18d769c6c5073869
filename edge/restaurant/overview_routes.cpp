// The landing overview (spec document 3, GET /overview; docs/restaurant-reports.md): per branch, today's
// takings, open tabs, overdue payables and the month so far, and their totals over the branches shown.
//
// Reads only the indexes the other routes keep, each from the day it needs: the order payment ledger
// `c/<id>/orderpay/<branch>/<day>/...`, open orders `c/<id>/orderopen/<branch>/<day>/<order>`, payables
// `c/<id>/payable/<branch>/<due>/<expense>`, accrued expenses `c/<id>/expacc/<branch>/<day>/<expense>` and
// income rows `c/<id>/income/<branch>/<day>/<channel>`, so its cost follows one month of one company.

#include <algorithm>
#include <map>
#include <tuple>

#include "core/restaurant/report.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/expense_record.h"
#include "edge/restaurant/report_package.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

using core::restaurant::CostTotals;
using core::restaurant::IncomeTotals;

struct BranchOverview {
  json::object branch;
  core::CivilDate businessDate;  // today's takings and the month so far
  core::CivilDate calendarDate;  // what is overdue
  std::int64_t orderPaymentsMinor = 0;
  std::int64_t paymentCount = 0;
  IncomeTotals incomeToday;
  std::int64_t openTabs = 0;
  std::int64_t openTabsDueMinor = 0;
  std::int64_t overdueCount = 0;
  std::int64_t overdueMinor = 0;
  std::vector<core::restaurant::ReportExpense> monthExpenses;
  std::vector<core::restaurant::ReportIncome> monthIncome;
  CostTotals monthCosts;
  IncomeTotals monthIncomeTotals;
};

core::CivilDate month_start(core::CivilDate d) {
  d.day = 1;
  return d;
}

// The day key in a ledger or index key `<prefix><YYYY-MM-DD>/...`.
std::string_view day_in_key(std::string_view key, std::size_t prefix_size) {
  return key.size() >= prefix_size + 10 ? key.substr(prefix_size, 10) : std::string_view();
}

// Fills today's and the open/overdue figures of one branch from its indexes. Money is added through `sum`
// (checked: stored amounts may add beyond int64); the caller checks sum.status().
void read_indexes(const store::ReadTxn& txn, store::Table t, const CompanyContext& ctx, BranchOverview& o,
                  core::restaurant::ReportSum& sum) {
  const std::string id = record::str(o.branch, "id");
  const std::string today = core::format_day_key(o.businessDate);
  const std::string calendar = core::format_day_key(o.calendarDate);
  const std::string month = core::format_day_key(month_start(o.businessDate));

  std::string pay = company_key(ctx, "orderpay", id) + "/" + today + "/";
  txn.scan(t, pay, [&](std::string_view, std::string_view value) {
    if (auto p = core::parse_json_object(value)) {
      sum.add(o.orderPaymentsMinor, record::num(*p, "amountMinor"));
      ++o.paymentCount;
    }
    return true;
  });

  std::string open = company_key(ctx, "orderopen", id) + "/";
  txn.scan(t, open, [&](std::string_view key, std::string_view) {
    auto order_id = key.substr(key.rfind('/') + 1);
    ++o.openTabs;
    if (auto order = txn.get(t, company_key(ctx, "order", order_id)))
      if (auto rec = core::parse_json_object(*order))
        sum.add(o.openTabsDueMinor, record::num(*rec, "dueMinor"));
    return true;
  });

  std::string payable = company_key(ctx, "payable", id) + "/";
  txn.scan(t, payable, [&](std::string_view key, std::string_view) {
    if (day_in_key(key, payable.size()) >= calendar)
      return false;  // due dates ascend: the rest is not overdue
    auto expense_id = key.substr(key.rfind('/') + 1);
    ++o.overdueCount;
    if (auto e = txn.get(t, company_key(ctx, "expense", expense_id)))
      if (auto rec = core::parse_json_object(*e)) sum.add(o.overdueMinor, record::num(*rec, "grossMinor"));
    return true;
  });

  // The month's costs: expenses accrued from the first of the month to the business date, by the accrual
  // index, so the overview reads this month's expenses and no others.
  std::string accrued = accrual_prefix(ctx.company.id, id);
  txn.scan(
      t, accrued,
      [&](std::string_view key, std::string_view) {
        if (day_in_key(key, accrued.size()) > today) return false;
        auto stored = txn.get(t, expense_key(ctx.company.id, key.substr(key.rfind('/') + 1)));
        if (!stored) return true;
        auto e = core::parse_json_object(*stored);
        if (!e) return true;
        auto accrual = core::parse_day_key(record::str(*e, "accrualDate"));
        if (!accrual) return true;
        o.monthExpenses.push_back({id, record::str(*e, "categoryId"), std::nullopt, *accrual, std::nullopt,
                                   record::num(*e, "grossMinor"), record::num(*e, "netMinor"),
                                   record::num(*e, "vatMinor"), record::num(*e, "costMinor")});
        return true;
      },
      accrued + month);

  std::string income = company_key(ctx, "income", id) + "/";
  txn.scan(
      t, income,
      [&](std::string_view key, std::string_view value) {
        std::string_view day = day_in_key(key, income.size());
        if (day > today) return false;
        auto rec = core::parse_json_object(value);
        auto parsed = core::parse_day_key(day);
        if (!rec || !parsed) return true;
        if (day == today) {
          sum.add(o.incomeToday,
                  IncomeTotals{record::num(*rec, "grossMinor"), record::num(*rec, "commissionMinor"),
                               record::num(*rec, "netMinor")});
        }
        o.monthIncome.push_back({id, *parsed, record::num(*rec, "grossMinor"),
                                 record::num(*rec, "commissionMinor"), record::num(*rec, "netMinor")});
        return true;
      },
      income + month);
}

json::object figures_json(std::int64_t payments, std::int64_t payment_count, const IncomeTotals& income_today,
                          std::int64_t tabs, std::int64_t tabs_due, std::int64_t overdue,
                          std::int64_t overdue_minor, const CostTotals& costs, const IncomeTotals& income) {
  return {
      {"today", json::object{{"orderPaymentsMinor", payments},
                             {"orderPaymentCount", payment_count},
                             {"income", income_totals_json(income_today)}}},
      {"openTabs", json::object{{"count", tabs}, {"dueMinor", tabs_due}}},
      {"overdue", json::object{{"count", overdue}, {"totalMinor", overdue_minor}}},
      {"monthToDate", json::object{{"costs", costs_json(costs)}, {"income", income_totals_json(income)}}}};
}

}  // namespace

void register_overview(App& app) {
  app.router.add("GET", path("/overview"),
                 restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
                   auto asked = branch_query(app, req, ctx);
                   if (!asked) return rest_error(asked.error());
                   std::vector<json::object> branches;
                   if (*asked) {
                     branches.push_back(std::move(**asked));
                   } else {
                     auto all = list_records(app, "c/" + ctx.company.id + "/branch/");
                     if (!all) return rest_error(all.error());
                     // Without a branchId: the active branches the caller can see, in picker order.
                     for (auto& b : *all)
                       if (record::boolean(b, "active") && may_view_branch(ctx, record::str(b, "id")))
                         branches.push_back(std::move(b));
                     sort_for_picker(branches);
                   }
                   std::vector<BranchOverview> views;
                   for (auto& b : branches) {
                     BranchOverview o;
                     auto day = current_business_date(app, b);
                     if (!day) return rest_error(day.error());
                     auto calendar = current_calendar_date(app, b);
                     if (!calendar) return rest_error(calendar.error());
                     o.branch = std::move(b);
                     o.businessDate = *day;
                     o.calendarDate = *calendar;
                     views.push_back(std::move(o));
                   }

                   store::Table t = app.restaurant_table;
                   auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
                     core::restaurant::ReportSum sum;
                     for (auto& o : views) {
                       // The read may run again on a fresh snapshot: start each branch's figures from zero.
                       BranchOverview fresh;
                       fresh.branch = std::move(o.branch);
                       fresh.businessDate = o.businessDate;
                       fresh.calendarDate = o.calendarDate;
                       o = std::move(fresh);
                       read_indexes(txn, t, ctx, o, sum);
                     }
                     return sum.status();
                   });
                   if (!st.ok()) return rest_error(st.error());

                   json::array out;
                   BranchOverview sum;
                   core::restaurant::ReportSum checked;
                   for (auto& o : views) {
                     core::restaurant::ReportQuery q;
                     q.from = month_start(o.businessDate);
                     q.to = o.businessDate;
                     q.topVendors = 0;
                     auto month = core::restaurant::build_report(o.monthExpenses, o.monthIncome, q);
                     if (!month) return rest_error(month.error());
                     json::object entry{{"branchId", record::str(o.branch, "id")},
                                        {"name", record::str(o.branch, "name")},
                                        {"businessDate", core::format_day_key(o.businessDate)},
                                        {"calendarDate", core::format_day_key(o.calendarDate)},
                                        {"monthFrom", core::format_day_key(q.from)}};
                     auto figures = figures_json(o.orderPaymentsMinor, o.paymentCount, o.incomeToday,
                                                 o.openTabs, o.openTabsDueMinor, o.overdueCount,
                                                 o.overdueMinor, month->costs, month->income);
                     for (auto& [k, v] : figures) entry[k] = v;
                     out.emplace_back(std::move(entry));
                     checked.add(sum.orderPaymentsMinor, o.orderPaymentsMinor);
                     checked.add(sum.paymentCount, o.paymentCount);
                     checked.add(sum.incomeToday, o.incomeToday);
                     checked.add(sum.openTabs, o.openTabs);
                     checked.add(sum.openTabsDueMinor, o.openTabsDueMinor);
                     checked.add(sum.overdueCount, o.overdueCount);
                     checked.add(sum.overdueMinor, o.overdueMinor);
                     checked.add(sum.monthCosts, month->costs);
                     checked.add(sum.monthIncomeTotals, month->income);
                   }
                   // Totals beyond int64 answer invalid_amount, as a report over the same rows does.
                   if (auto total = checked.status(); !total.ok()) return rest_error(total.error());
                   return rest_ok(json::object{
                       {"branches", std::move(out)},
                       {"totals", figures_json(sum.orderPaymentsMinor, sum.paymentCount, sum.incomeToday,
                                               sum.openTabs, sum.openTabsDueMinor, sum.overdueCount,
                                               sum.overdueMinor, sum.monthCosts, sum.monthIncomeTotals)}});
                 }));
}

}  // namespace edge::restaurant
