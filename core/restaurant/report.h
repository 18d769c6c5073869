#pragma once
// The monthly report (spec document 3, GET /reports; spec/DECISIONS.md: "Report months carry gross, net and
// VAT separately for costs, and gross, commission and net for income"): totals per month over a window, with
// branch, category and vendor breakdowns, the top vendors and the food-cost ratio. Pure aggregation over
// records the edge has already filtered to the company and the branches the caller may see.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/date.h"
#include "core/result.h"

namespace core::restaurant {

// accrual: a cost counts on its accrualDate. cash: on the date it was paid; unpaid costs are left out.
// Income counts on its businessDate under both bases (takings are cash on the day).
enum class ReportBasis { accrual, cash };

// `accrual` or `cash`. Errors: `invalid_field` otherwise.
Result<ReportBasis> parse_report_basis(std::string_view text);
// The wire name: `accrual` or `cash`.
std::string_view report_basis_name(ReportBasis basis);

// One expense as the report needs it. paidDate is the calendar date of paidAt in the branch's time zone
// (the edge converts with native::local_time); nullopt when unpaid.
struct ReportExpense {
  std::string branchId;
  std::string categoryId;
  std::optional<std::string> vendorId;
  CivilDate accrualDate;
  std::optional<CivilDate> paidDate;
  std::int64_t grossMinor = 0;
  std::int64_t netMinor = 0;
  std::int64_t vatMinor = 0;
  std::int64_t costMinor = 0;  // net, or gross when the VAT is not deductible
};

struct ReportIncome {
  std::string branchId;
  CivilDate businessDate;
  std::int64_t grossMinor = 0;
  std::int64_t commissionMinor = 0;
  std::int64_t netMinor = 0;
};

struct ReportQuery {
  CivilDate from;  // inclusive
  CivilDate to;    // inclusive
  ReportBasis basis = ReportBasis::accrual;
  std::size_t topVendors = 5;
  std::vector<std::string> foodCategoryIds;
};

struct CostTotals {
  std::int64_t grossMinor = 0;
  std::int64_t netMinor = 0;
  std::int64_t vatMinor = 0;
  std::int64_t costMinor = 0;

  friend bool operator==(const CostTotals&, const CostTotals&) = default;
};

struct IncomeTotals {
  std::int64_t grossMinor = 0;
  std::int64_t commissionMinor = 0;
  std::int64_t netMinor = 0;

  friend bool operator==(const IncomeTotals&, const IncomeTotals&) = default;
};

// Checked running sums of report figures, which add many stored amounts in the int64 range: every add is
// checked, an overflow latches (the total is then meaningless), and the caller asks status() once at the end.
// Used by build_report and by the edge's overview totals, so no figure is ever added with an unchecked `+=`
// (signed overflow is undefined behaviour).
class ReportSum {
 public:
  void add(std::int64_t& total, std::int64_t amount);
  void add(CostTotals& total, const CostTotals& amount);
  void add(IncomeTotals& total, const IncomeTotals& amount);
  // ok, or `invalid_amount` when an add overflowed.
  Status status() const;

 private:
  bool overflow_ = false;
};

struct ReportMonth {
  std::string month;  // YYYY-MM
  CostTotals costs;
  IncomeTotals income;
};

// A breakdown entry: a branch (costs and income), a category or a vendor (costs; income stays zero).
struct ReportBreakdown {
  std::string id;
  CostTotals costs;
  IncomeTotals income;
};

// Food cost: the cost (costMinor, so deductible VAT excluded) of expenses in foodCategoryIds, over the income
// net (after platform commissions) of the same window. ratioBps = round_half_up(foodCostMinor * 10000 /
// incomeNetMinor): 3250 = 32.5 %; nullopt when there is no income net (no division by zero).
struct FoodCost {
  std::int64_t foodCostMinor = 0;
  std::int64_t incomeNetMinor = 0;
  std::optional<std::int64_t> ratioBps;
};

struct Report {
  std::vector<ReportMonth> months;  // every month from `from` to `to`, empty months included
  CostTotals costs;                 // over the window
  IncomeTotals income;
  std::vector<ReportBreakdown> byBranch;    // by id; branches with costs or income in the window
  std::vector<ReportBreakdown> byCategory;  // by id
  std::vector<ReportBreakdown> byVendor;    // by id; expenses without a vendor are in no vendor entry
  std::vector<ReportBreakdown>
      topVendors;  // the first topVendors vendors by cost gross, descending; ties by id
  FoodCost foodCost;
};

// Longest window a report covers, in months (ten years), so a request cannot ask for a huge month list.
inline constexpr std::int64_t kMaxReportMonths = 120;

// Aggregates in O(n log n) for n records (sorted maps keyed by id).
// Errors: `invalid_range` when from > to or the window spans more than kMaxReportMonths months;
// `invalid_amount` when a total would exceed the int64 range (far beyond real data).
Result<Report> build_report(std::span<const ReportExpense> expenses, std::span<const ReportIncome> income,
                            const ReportQuery& query);

}  // namespace core::restaurant
