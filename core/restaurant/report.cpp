#include "core/restaurant/report.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "core/money.h"

namespace core::restaurant {
namespace {

CostTotals costs_of(const ReportExpense& e) {
  return {e.grossMinor, e.netMinor, e.vatMinor, e.costMinor};
}

IncomeTotals income_of(const ReportIncome& i) {
  return {i.grossMinor, i.commissionMinor, i.netMinor};
}

std::int64_t month_index(const CivilDate& d) {
  return static_cast<std::int64_t>(d.year) * 12 + (d.month - 1);
}

std::string month_key(std::int64_t index) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02d", static_cast<int>(index / 12),
                static_cast<int>(index % 12 + 1));
  return text;
}

std::vector<ReportBreakdown> flatten(std::map<std::string, ReportBreakdown>& by_id) {
  std::vector<ReportBreakdown> out;
  out.reserve(by_id.size());
  for (auto& [id, entry] : by_id) out.push_back(std::move(entry));
  return out;
}

}  // namespace

void ReportSum::add(std::int64_t& total, std::int64_t amount) {
  if (__builtin_add_overflow(total, amount, &total)) overflow_ = true;
}

void ReportSum::add(CostTotals& total, const CostTotals& amount) {
  add(total.grossMinor, amount.grossMinor);
  add(total.netMinor, amount.netMinor);
  add(total.vatMinor, amount.vatMinor);
  add(total.costMinor, amount.costMinor);
}

void ReportSum::add(IncomeTotals& total, const IncomeTotals& amount) {
  add(total.grossMinor, amount.grossMinor);
  add(total.commissionMinor, amount.commissionMinor);
  add(total.netMinor, amount.netMinor);
}

Status ReportSum::status() const {
  if (overflow_) return make_error("invalid_amount", "report totals exceed the integer range");
  return {};
}

Result<ReportBasis> parse_report_basis(std::string_view text) {
  if (text == "accrual") return ReportBasis::accrual;
  if (text == "cash") return ReportBasis::cash;
  return make_error("invalid_field", "basis must be accrual or cash");
}

std::string_view report_basis_name(ReportBasis basis) {
  return basis == ReportBasis::accrual ? "accrual" : "cash";
}

Result<Report> build_report(std::span<const ReportExpense> expenses, std::span<const ReportIncome> income,
                            const ReportQuery& query) {
  if (query.to < query.from) return make_error("invalid_range", "from must not be after to");
  const std::int64_t first_month = month_index(query.from);
  const std::int64_t month_count = month_index(query.to) - first_month + 1;
  if (month_count > kMaxReportMonths) {
    return make_error("invalid_range",
                      "a report covers at most " + std::to_string(kMaxReportMonths) + " months");
  }

  Report report;
  report.months.resize(static_cast<std::size_t>(month_count));
  for (std::int64_t m = 0; m < month_count; ++m) report.months[m].month = month_key(first_month + m);

  const std::set<std::string, std::less<>> food(query.foodCategoryIds.begin(), query.foodCategoryIds.end());
  std::map<std::string, ReportBreakdown> branches, categories, vendors;
  auto entry = [](std::map<std::string, ReportBreakdown>& by_id, const std::string& id) -> ReportBreakdown& {
    auto it = by_id.try_emplace(id).first;
    it->second.id = id;
    return it->second;
  };
  ReportSum sum;

  for (const ReportExpense& e : expenses) {
    std::optional<CivilDate> counted_on =
        query.basis == ReportBasis::accrual ? std::optional<CivilDate>(e.accrualDate) : e.paidDate;
    if (!counted_on || *counted_on < query.from || query.to < *counted_on) continue;
    const CostTotals c = costs_of(e);
    sum.add(report.months[month_index(*counted_on) - first_month].costs, c);
    sum.add(report.costs, c);
    sum.add(entry(branches, e.branchId).costs, c);
    sum.add(entry(categories, e.categoryId).costs, c);
    if (e.vendorId) sum.add(entry(vendors, *e.vendorId).costs, c);
    if (food.count(e.categoryId) != 0) sum.add(report.foodCost.foodCostMinor, e.costMinor);
  }
  for (const ReportIncome& i : income) {
    if (i.businessDate < query.from || query.to < i.businessDate) continue;
    const IncomeTotals in = income_of(i);
    sum.add(report.months[month_index(i.businessDate) - first_month].income, in);
    sum.add(report.income, in);
    sum.add(entry(branches, i.branchId).income, in);
  }
  if (auto st = sum.status(); !st.ok()) return st.error();

  report.byBranch = flatten(branches);
  report.byCategory = flatten(categories);
  report.byVendor = flatten(vendors);

  std::vector<const ReportBreakdown*> ranked;
  ranked.reserve(report.byVendor.size());
  for (const ReportBreakdown& v : report.byVendor) ranked.push_back(&v);
  const std::size_t top = std::min(query.topVendors, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(top), ranked.end(),
                    [](const ReportBreakdown* a, const ReportBreakdown* b) {
                      if (a->costs.grossMinor != b->costs.grossMinor)
                        return a->costs.grossMinor > b->costs.grossMinor;
                      return a->id < b->id;
                    });
  for (std::size_t k = 0; k < top; ++k) report.topVendors.push_back(*ranked[k]);

  FoodCost& fc = report.foodCost;
  fc.incomeNetMinor = report.income.netMinor;
  if (fc.incomeNetMinor > 0) {
    // foodCost * 10000 must fit int64: food costs up to about 9.2 * 10^14 minor units.
    if (fc.foodCostMinor > std::numeric_limits<std::int64_t>::max() / 10000 || fc.foodCostMinor < 0) {
      return make_error("invalid_amount", "the food cost is too large for the ratio");
    }
    auto ratio = round_half_up(fc.foodCostMinor * 10000, fc.incomeNetMinor);
    if (!ratio) return ratio.error();
    fc.ratioBps = *ratio;
  }
  return report;
}

}  // namespace core::restaurant
