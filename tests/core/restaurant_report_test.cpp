#include "core/restaurant/report.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace core;
using namespace core::restaurant;

namespace {

CivilDate day(std::string_view key) {
  auto d = parse_day_key(key);
  REQUIRE_MESSAGE(d.ok(), key);
  return *d;
}

ReportExpense expense(std::string branch, std::string category, std::optional<std::string> vendor,
                      std::string_view accrual, std::optional<std::string_view> paid, std::int64_t gross,
                      std::int64_t net, std::int64_t cost) {
  ReportExpense e{std::move(branch),
                  std::move(category),
                  std::move(vendor),
                  day(accrual),
                  std::nullopt,
                  gross,
                  net,
                  gross - net,
                  cost};
  if (paid) e.paidDate = day(*paid);
  return e;
}

// Window 2026-01-15 .. 2026-03-10; food = cat_food.
// Fixtures are built inside the tests (day() uses REQUIRE, which needs a running test).
std::vector<ReportExpense> fixture_expenses() {
  return {
      expense("br_a", "cat_food", "ven_x", "2026-01-20", "2026-02-05", 1200, 1000, 1000),  // E1
      expense("br_a", "cat_food", "ven_y", "2026-02-10", std::nullopt, 600, 500, 500),     // E2 unpaid
      expense("br_b", "cat_rent", "ven_z", "2026-01-31", "2026-01-31", 2400, 2000,
              2400),  // E3 VAT not deductible
      expense("br_b", "cat_food", std::nullopt, "2026-03-10", "2026-03-11", 120, 100, 100),  // E4 no vendor
      expense("br_a", "cat_food", "ven_x", "2026-01-14", "2026-01-16", 1200, 1000,
              1000),                                                                    // E5 accrued before
      expense("br_a", "cat_rent", "ven_y", "2026-03-11", std::nullopt, 999, 900, 900),  // E6 after the window
  };
}
std::vector<ReportIncome> fixture_income() {
  return {
      {"br_a", day("2026-01-15"), 5000, 500, 4500},
      {"br_b", day("2026-02-28"), 3000, 0, 3000},
      {"br_a", day("2026-03-11"), 7000, 0, 7000},  // after the window
  };
}

ReportQuery query(ReportBasis basis, std::size_t top = 2) {
  return ReportQuery{day("2026-01-15"), day("2026-03-10"), basis, top, {"cat_food"}};
}

std::vector<std::string> ids(const std::vector<ReportBreakdown>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.id);
  return out;
}

}  // namespace

TEST_CASE("accrual report: months, breakdowns, top vendors and the food-cost ratio") {
  auto r = build_report(fixture_expenses(), fixture_income(), query(ReportBasis::accrual));
  REQUIRE(r.ok());
  // Counted: E1 (Jan), E2 (Feb), E3 (Jan), E4 (Mar). E5 and E6 fall outside the window.
  REQUIRE(r->months.size() == 3);
  CHECK(r->months[0].month == "2026-01");
  CHECK(r->months[0].costs == CostTotals{3600, 3000, 600, 3400});  // E1 + E3
  CHECK(r->months[0].income == IncomeTotals{5000, 500, 4500});
  CHECK(r->months[1].month == "2026-02");
  CHECK(r->months[1].costs == CostTotals{600, 500, 100, 500});  // E2
  CHECK(r->months[1].income == IncomeTotals{3000, 0, 3000});
  CHECK(r->months[2].month == "2026-03");
  CHECK(r->months[2].costs == CostTotals{120, 100, 20, 100});  // E4
  CHECK(r->months[2].income == IncomeTotals{});
  CHECK(r->costs == CostTotals{4320, 3600, 720, 4000});
  CHECK(r->income == IncomeTotals{8000, 500, 7500});

  CHECK(ids(r->byBranch) == std::vector<std::string>{"br_a", "br_b"});
  CHECK(r->byBranch[0].costs == CostTotals{1800, 1500, 300, 1500});  // E1 + E2
  CHECK(r->byBranch[0].income == IncomeTotals{5000, 500, 4500});
  CHECK(r->byBranch[1].costs == CostTotals{2520, 2100, 420, 2500});  // E3 + E4
  CHECK(ids(r->byCategory) == std::vector<std::string>{"cat_food", "cat_rent"});
  CHECK(r->byCategory[0].costs == CostTotals{1920, 1600, 320, 1600});              // E1 + E2 + E4
  CHECK(ids(r->byVendor) == std::vector<std::string>{"ven_x", "ven_y", "ven_z"});  // E4 has no vendor
  CHECK(ids(r->topVendors) == std::vector<std::string>{"ven_z", "ven_x"});         // 2400, 1200 (ven_y 600)

  // Food cost 1600 (E1 1000 + E2 500 + E4 100) over income net 7500: 2133.33 -> 2133 bps.
  CHECK(r->foodCost.foodCostMinor == 1600);
  CHECK(r->foodCost.incomeNetMinor == 7500);
  CHECK(r->foodCost.ratioBps == 2133);
}

TEST_CASE("cash report: costs count on their payment date; unpaid costs are absent") {
  auto r = build_report(fixture_expenses(), fixture_income(), query(ReportBasis::cash, 10));
  REQUIRE(r.ok());
  // Counted: E5 (paid 01-16), E3 (01-31), E1 (02-05). E2 is unpaid, E4 was paid on 03-11.
  CHECK(r->months[0].costs == CostTotals{3600, 3000, 600, 3400});  // E3 + E5
  CHECK(r->months[1].costs == CostTotals{1200, 1000, 200, 1000});  // E1
  CHECK(r->months[2].costs == CostTotals{});
  CHECK(r->income == IncomeTotals{8000, 500, 7500});  // income is dated by businessDate on both bases
  // ven_x 2400 (E1 + E5) ties ven_z 2400: by id. topVendors 10 is cut to the 2 vendors there are.
  CHECK(ids(r->topVendors) == std::vector<std::string>{"ven_x", "ven_z"});
  // Food cost 2000 (E1 + E5) / 7500 = 2666.67 -> 2667.
  CHECK(r->foodCost.ratioBps == 2667);
}

TEST_CASE("no income: no ratio; empty months across a year boundary are listed") {
  ReportQuery q{day("2025-12-01"), day("2026-01-31"), ReportBasis::accrual, 0, {"cat_food"}};
  auto r = build_report(fixture_expenses(), {}, q);
  REQUIRE(r.ok());
  REQUIRE(r->months.size() == 2);
  CHECK(r->months[0].month == "2025-12");
  CHECK(r->months[0].costs == CostTotals{});
  CHECK(r->months[1].month == "2026-01");
  CHECK(r->months[1].costs.grossMinor == 4800);  // E1 + E3 + E5
  CHECK(r->topVendors.empty());                  // topVendors 0
  CHECK(r->foodCost.foodCostMinor == 2000);
  CHECK_FALSE(r->foodCost.ratioBps.has_value());
}

TEST_CASE("report window and basis errors") {
  CHECK(build_report({}, {}, ReportQuery{day("2026-02-01"), day("2026-01-31"), ReportBasis::accrual, 5, {}})
            .error()
            .code == "invalid_range");
  CHECK(build_report({}, {}, ReportQuery{day("2016-01-01"), day("2025-12-31"), ReportBasis::accrual, 5, {}})
            .ok());  // 120 months
  CHECK(build_report({}, {}, ReportQuery{day("2016-01-01"), day("2026-01-01"), ReportBasis::accrual, 5, {}})
            .error()
            .code == "invalid_range");
  CHECK(*parse_report_basis("cash") == ReportBasis::cash);
  CHECK(*parse_report_basis("accrual") == ReportBasis::accrual);
  CHECK(parse_report_basis("Cash").error().code == "invalid_field");
}

TEST_CASE("100k expenses and 30k income rows aggregate in one pass") {
  const CivilDate jan1 = day("2025-01-01");
  std::vector<ReportExpense> expenses;
  expenses.reserve(100'000);
  for (int i = 0; i < 100'000; ++i) {
    ReportExpense e;
    e.branchId = "br_" + std::to_string(i % 7);
    e.categoryId = "cat_" + std::to_string(i % 20);
    e.vendorId = "ven_" + std::to_string(i % 500);
    e.accrualDate = add_days(jan1, i % 365);
    e.grossMinor = 1200;
    e.netMinor = 1000;
    e.vatMinor = 200;
    e.costMinor = 1000;
    expenses.push_back(std::move(e));
  }
  std::vector<ReportIncome> income;
  income.reserve(30'000);
  for (int i = 0; i < 30'000; ++i) {
    income.push_back(ReportIncome{"br_" + std::to_string(i % 7), add_days(jan1, i % 365), 10000, 1000, 9000});
  }
  ReportQuery q{day("2025-01-01"), day("2025-12-31"), ReportBasis::accrual, 5, {"cat_0", "cat_1"}};
  auto r = build_report(expenses, income, q);
  REQUIRE(r.ok());
  CHECK(r->months.size() == 12);
  CHECK(r->costs.grossMinor == 120'000'000);
  CHECK(r->income.netMinor == 270'000'000);
  CHECK(r->byVendor.size() == 500);
  CHECK(r->topVendors.size() == 5);
  CHECK(r->topVendors[0].id == "ven_0");  // all vendors have 200 expenses: ties by id ("ven_0" < "ven_1" ...)
  CHECK(r->topVendors[1].id == "ven_1");
  CHECK(r->topVendors[2].id == "ven_10");
  // Food: cat_0 and cat_1 are 10 % of the expenses: 10000 x 1000 = 10^7; / 2.7 * 10^8 = 370.37 -> 370 bps.
  CHECK(r->foodCost.ratioBps == 370);
}

TEST_CASE("report basis names go both ways") {
  using namespace core::restaurant;
  CHECK(report_basis_name(ReportBasis::accrual) == "accrual");
  CHECK(report_basis_name(ReportBasis::cash) == "cash");
  CHECK(*parse_report_basis(report_basis_name(ReportBasis::cash)) == ReportBasis::cash);
}
