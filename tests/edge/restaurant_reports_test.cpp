// Restaurant reports: GET /reports on both bases against a fixture computed by hand, branch filtering and
// visibility, the CSV export and its audit entry (reading a report writes none).

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

// Two branches, two categories, three vendors, five expenses and three income rows (all figures by hand):
//   e1 Moda    Food Metro      12000 @ 10 %  accrual 10-05 paid 10-05          vat round(1090.9)=1091 net
//   10909 e2 Moda    Rent Landlord   60000 @ 20 %  accrual 10-31 paid 11-02 13:00    vat 10000 net 50000 e3
//   Kadikoy Food Fish        5400 @ 8 %   accrual 11-03 unpaid, VAT not deductible: vat 400 net 5000 cost
//   5400 e4 Kadikoy Food Metro       2150 @ 1.5 % accrual 11-10 paid 2026-10-31T22:30Z = 11-01 01:30 in
//   Istanbul
//                                            vat round(31.77)=32 net 2118
//   e5 Moda    Food (no vendor) 1000 @ 0 %   accrual 09-30 (before the window) paid 10-01
//   income: Moda 10-05 dine-in 100000; Moda 11-02 delivery 30000 - 4500 commission; Kadikoy 11-03 20000.
struct Fixture {
  TestEdge edge;
  std::string moda, kadikoy, food, rent, metro, landlord, fish;

  Fixture() {
    moda = create(edge, "/branches", R"({"name":"Moda","order":1})");
    kadikoy = create(edge, "/branches", R"({"name":"Kadikoy","order":2})");
    food = create(edge, "/categories", R"({"name":"Food"})");
    rent = create(edge, "/categories", R"({"name":"Rent"})");
    metro = create(edge, "/vendors", R"({"name":"Metro"})");
    landlord = create(edge, "/vendors", R"({"name":"Landlord"})");
    fish = create(edge, "/vendors", R"({"name":"=Fish, Co"})");
    expense(moda, food, "\"" + metro + "\"", 12000, 1000, "2026-10-05", "\"2026-10-05T09:00:00Z\"", true);
    expense(moda, rent, "\"" + landlord + "\"", 60000, 2000, "2026-10-31", "\"2026-11-02T10:00:00Z\"", true);
    expense(kadikoy, food, "\"" + fish + "\"", 5400, 800, "2026-11-03", "null", false);
    expense(kadikoy, food, "\"" + metro + "\"", 2150, 150, "2026-11-10", "\"2026-10-31T22:30:00Z\"", true);
    expense(moda, food, "null", 1000, 0, "2026-09-30", "\"2026-10-01T08:00:00Z\"", true);
    income_row(moda, "2026-10-05", "dine-in", 100000, 0);
    income_row(moda, "2026-11-02", "delivery", 30000, 4500);
    income_row(kadikoy, "2026-11-03", "dine-in", 20000, 0);
  }

  void expense(const std::string& branch, const std::string& category, const std::string& vendor, int gross,
               int bps, const std::string& accrual, const std::string& paid, bool deductible) {
    create(edge, "/expenses",
           R"({"branchId":")" + branch + R"(","categoryId":")" + category + R"(","vendorId":)" + vendor +
               R"(,"grossMinor":)" + std::to_string(gross) + R"(,"vatRateBps":)" + std::to_string(bps) +
               R"(,"accrualDate":")" + accrual + R"(","paidAt":)" + paid + R"(,"isVatDeductible":)" +
               (deductible ? "true" : "false") + "}");
  }

  void income_row(const std::string& branch, const std::string& day, const std::string& channel, int gross,
                  int commission) {
    create(edge, "/income",
           R"({"branchId":")" + branch + R"(","businessDate":")" + day + R"(","channel":")" + channel +
               R"(","grossMinor":)" + std::to_string(gross) + R"(,"commissionMinor":)" +
               std::to_string(commission) + "}");
  }

  testing::Reply report(const std::string& query, const std::string& token = "") {
    return edge.get(kBase + "/reports?" + query, token.empty() ? edge.acme_token : token);
  }
};

json::object entry(const std::string& id, const std::string& name, json::object c) {
  return {{"id", id}, {"name", name}, {"costs", std::move(c)}};
}

}  // namespace

TEST_CASE("restaurant reports: accrual basis, months, breakdowns, top vendors and food cost") {
  Fixture f;
  auto r = f.report("from=2026-10-01&to=2026-11-30&basis=accrual&topVendors=2&foodCategoryIds=" + f.food);
  INFO(r.body);
  REQUIRE(r.status == 200);
  const auto& d = r.data().as_object();
  CHECK(d.at("from").as_string() == "2026-10-01");
  CHECK(d.at("to").as_string() == "2026-11-30");
  CHECK(d.at("basis").as_string() == "accrual");
  CHECK(d.at("branchId").is_null());
  // October: e1 + e2. November: e3 + e4 (e3's 400 VAT stays in its cost: 5000 + 400 = 5400).
  json::array months{json::object{{"month", "2026-10"},
                                  {"costs", costs(72000, 60909, 11091, 60909)},
                                  {"income", income(100000, 0, 100000)}},
                     json::object{{"month", "2026-11"},
                                  {"costs", costs(7550, 7118, 432, 7518)},
                                  {"income", income(50000, 4500, 45500)}}};
  CHECK(d.at("months") == json::value(months));
  CHECK(d.at("totals") == json::value(json::object{{"costs", costs(79550, 68027, 11523, 68427)},
                                                   {"income", income(150000, 4500, 145500)}}));

  // Breakdowns are sorted by id; compare as sets through a lookup.
  auto find = [](const json::value& list, const std::string& id) -> json::object {
    for (const auto& e : list.as_array())
      if (e.as_object().at("id").as_string() == id) return e.as_object();
    return {};
  };
  auto moda = entry(f.moda, "Moda", costs(72000, 60909, 11091, 60909));
  moda["income"] = income(130000, 4500, 125500);
  auto kadikoy = entry(f.kadikoy, "Kadikoy", costs(7550, 7118, 432, 7518));
  kadikoy["income"] = income(20000, 0, 20000);
  CHECK(d.at("byBranch").as_array().size() == 2);
  CHECK(find(d.at("byBranch"), f.moda) == moda);
  CHECK(find(d.at("byBranch"), f.kadikoy) == kadikoy);
  // Food: e1 + e3 + e4 = 12000 + 5400 + 2150 gross; cost 10909 + 5400 + 2118.
  CHECK(d.at("byCategory").as_array().size() == 2);
  CHECK(find(d.at("byCategory"), f.food) == entry(f.food, "Food", costs(19550, 18027, 1523, 18427)));
  CHECK(find(d.at("byCategory"), f.rent) == entry(f.rent, "Rent", costs(60000, 50000, 10000, 50000)));
  CHECK(d.at("byVendor").as_array().size() == 3);
  CHECK(find(d.at("byVendor"), f.metro) == entry(f.metro, "Metro", costs(14150, 13027, 1123, 13027)));
  CHECK(find(d.at("byVendor"), f.fish) == entry(f.fish, "=Fish, Co", costs(5400, 5000, 400, 5400)));
  // Top two by cost gross: Landlord 60000, Metro 14150.
  CHECK(d.at("topVendors") ==
        json::value(json::array{entry(f.landlord, "Landlord", costs(60000, 50000, 10000, 50000)),
                                entry(f.metro, "Metro", costs(14150, 13027, 1123, 13027))}));
  // Food cost 18427 over income net 145500: round(1266.46) = 1266 bps.
  CHECK(d.at("foodCost") == json::value(json::object{{"categoryIds", json::array{json::value(f.food)}},
                                                     {"foodCostMinor", 18427},
                                                     {"incomeNetMinor", 145500},
                                                     {"ratioBps", 1266}}));
}

TEST_CASE("restaurant reports: cash basis counts a cost on its payment date in the branch's zone") {
  Fixture f;
  auto r = f.report("from=2026-10-01&to=2026-11-30&basis=cash");
  REQUIRE(r.status == 200);
  const auto& d = r.data().as_object();
  // October: e1 (paid 10-05) + e5 (paid 10-01, accrued in September). November: e2 (paid 11-02) + e4 (paid
  // 2026-10-31T22:30Z, 11-01 in Istanbul). e3 is unpaid: not a cash cost.
  CHECK(d.at("months").as_array()[0].as_object().at("costs") ==
        json::value(costs(13000, 11909, 1091, 11909)));
  CHECK(d.at("months").as_array()[1].as_object().at("costs") ==
        json::value(costs(62150, 52118, 10032, 52118)));
  CHECK(d.at("totals").as_object().at("costs") == json::value(costs(75150, 64027, 11123, 64027)));
  // Income counts on its business date on both bases.
  CHECK(d.at("totals").as_object().at("income") == json::value(income(150000, 4500, 145500)));
  // No food categories: a food cost of 0 over the income net 145500 is a ratio of 0.
  CHECK(d.at("foodCost").as_object().at("ratioBps").as_int64() == 0);
  // Default topVendors 5, but only Landlord (e2) and Metro (e1, e4) have cash costs: e3 (Fish) is unpaid.
  CHECK(d.at("topVendors").as_array().size() == 2);
}

TEST_CASE("restaurant reports: one branch, and what a branch-limited token sees") {
  Fixture f;
  auto one = f.report("from=2026-10-01&to=2026-11-30&branchId=" + f.kadikoy);
  REQUIRE(one.status == 200);
  CHECK(str(one.data(), "branchId") == f.kadikoy);
  CHECK(one.data().as_object().at("totals") ==
        json::value(
            json::object{{"costs", costs(7550, 7118, 432, 7518)}, {"income", income(20000, 0, 20000)}}));

  std::string limited = f.edge.token_with("acme", {"restaurant.branch:" + f.kadikoy});
  auto seen = f.report("from=2026-10-01&to=2026-11-30", limited);
  REQUIRE(seen.status == 200);
  CHECK(seen.data().as_object().at("totals") == one.data().as_object().at("totals"));
  CHECK(seen.data().as_object().at("byBranch").as_array().size() == 1);
  CHECK(f.report("from=2026-10-01&to=2026-11-30&branchId=" + f.moda, limited).status == 404);
}

TEST_CASE("restaurant reports: query errors") {
  Fixture f;
  auto code = [&](const std::string& q) {
    auto r = f.report(q);
    return std::to_string(r.status) + " " + (r.json.is_object() ? str(r.json, "error") : r.body);
  };
  CHECK(code("to=2026-11-30") == "422 missing_field");
  CHECK(code("from=2026-10-01") == "422 missing_field");
  CHECK(code("from=2026-10-1&to=2026-11-30") == "422 invalid_date");
  CHECK(code("from=2026-12-01&to=2026-11-30") == "422 invalid_range");
  CHECK(code("from=2026-10-01&to=2026-11-30&basis=paid") == "422 invalid_field");
  CHECK(code("from=2026-10-01&to=2026-11-30&topVendors=-1") == "422 invalid_field");
  CHECK(code("from=2026-10-01&to=2026-11-30&topVendors=101") == "422 invalid_field");
  CHECK(code("from=2026-10-01&to=2026-11-30&branchId=br_nope") == "404 branch_not_found");
  CHECK(code("from=2000-01-01&to=2026-11-30") == "422 invalid_range");  // more than 120 months
  CHECK(
      f.edge.get("/api/restaurant/companies/acme/reports?from=2026-10-01&to=2026-11-30", f.edge.globex_token)
          .status == 404);
}

TEST_CASE("restaurant reports: the CSV export carries the same figures and is written to the audit log") {
  Fixture f;
  auto log = [&] { return f.edge.get(kBase + "/audit-log", f.edge.acme_token); };
  const std::string query = "from=2026-10-01&to=2026-11-30&topVendors=1&foodCategoryIds=" + f.food;
  REQUIRE(f.report(query).status == 200);
  CHECK(log().data().as_array().empty());  // reading is not audited

  auto csv = f.edge.get(kBase + "/reports/export?" + query, f.edge.acme_token);
  REQUIRE(csv.status == 200);
  CHECK(csv.header("Content-Type") == "text/csv; charset=utf-8");
  CHECK(csv.header("Content-Disposition") == "attachment; filename=\"report-2026-10-01-2026-11-30.csv\"");
  std::string expected =
      "section,key,name,costGrossMinor,costNetMinor,costVatMinor,costMinor,incomeGrossMinor,"
      "incomeCommissionMinor,incomeNetMinor\r\n"
      "month,2026-10,,72000,60909,11091,60909,100000,0,100000\r\n"
      "month,2026-11,,7550,7118,432,7518,50000,4500,45500\r\n"
      "total,2026-10-01..2026-11-30,,79550,68027,11523,68427,150000,4500,145500\r\n";
  CHECK(csv.body.rfind(expected, 0) == 0);
  CHECK(csv.body.find("branch," + f.moda + ",Moda,72000,60909,11091,60909,130000,4500,125500\r\n") !=
        std::string::npos);
  CHECK(csv.body.find("category," + f.rent + ",Rent,60000,50000,10000,50000,,,\r\n") != std::string::npos);
  // A name that looks like a formula is defused and quoted (it holds a comma).
  CHECK(csv.body.find("vendor," + f.fish + ",\"'=Fish, Co\",5400,5000,400,5400,,,\r\n") != std::string::npos);
  CHECK(csv.body.find("topVendor," + f.landlord + ",Landlord,") != std::string::npos);
  CHECK(csv.body.find("topVendor," + f.metro) == std::string::npos);
  CHECK(csv.body.ends_with("foodCost,1266,,,,,18427,,,145500\r\n"));

  auto entries = log();
  REQUIRE(entries.status == 200);
  REQUIRE(entries.data().as_array().size() == 1);
  const auto& e = entries.data().as_array()[0].as_object();
  CHECK(e.at("action").as_string() == "restaurant.report.export");
  CHECK(e.at("at").as_string() == "2026-11-18T11:06:40.000Z");
  CHECK(e.at("actor").as_object().at("kind").as_string() == "token");
  CHECK(e.at("details") == json::value(json::object{{"from", "2026-10-01"},
                                                    {"to", "2026-11-30"},
                                                    {"basis", "accrual"},
                                                    {"branchId", nullptr},
                                                    {"topVendors", 1},
                                                    {"foodCategoryIds", json::array{json::value(f.food)}},
                                                    {"format", "csv"}}));
  // A refused export is not audited; the audit log is for managers.
  CHECK(f.edge.get(kBase + "/reports/export?from=x&to=y", f.edge.acme_token).status == 422);
  CHECK(log().data().as_array().size() == 1);
  std::string viewer = f.edge.token_with("acme", {"restaurant.view"});
  CHECK(f.edge.get(kBase + "/audit-log", viewer).status == 403);
  CHECK(f.edge.get(kBase + "/reports/export?" + query, viewer).status == 200);
  CHECK(log().data().as_array().size() == 2);
}

TEST_CASE("restaurant reports: a window without income has no food-cost ratio") {
  Fixture f;
  // September: only e5 (1000 at 0 %, no vendor), no income.
  auto r = f.report("from=2026-09-01&to=2026-09-30&foodCategoryIds=" + f.food);
  REQUIRE(r.status == 200);
  const auto& d = r.data().as_object();
  CHECK(d.at("totals") ==
        json::value(json::object{{"costs", costs(1000, 1000, 0, 1000)}, {"income", income(0, 0, 0)}}));
  CHECK(d.at("foodCost") == json::value(json::object{{"categoryIds", json::array{json::value(f.food)}},
                                                     {"foodCostMinor", 1000},
                                                     {"incomeNetMinor", 0},
                                                     {"ratioBps", nullptr}}));
  CHECK(d.at("byVendor").as_array().empty());
  CHECK(d.at("topVendors").as_array().empty());
}

TEST_CASE(
    "restaurant reports: a long window (read by a full scan) agrees with a short one (read by the index)") {
  Fixture f;
  auto year = f.report("from=2026-01-01&to=2026-12-31");    // the whole year of both branches: full scan
  auto autumn = f.report("from=2026-10-01&to=2026-11-30");  // two months: the accrual index
  REQUIRE(year.status == 200);
  REQUIRE(autumn.status == 200);
  const auto& months = year.data().as_object().at("months").as_array();
  REQUIRE(months.size() == 12);
  CHECK(months[8].as_object().at("month").as_string() == "2026-09");
  CHECK(months[8].as_object().at("costs") == json::value(costs(1000, 1000, 0, 1000)));  // e5
  CHECK(months[9] == autumn.data().as_object().at("months").as_array()[0]);
  CHECK(months[10] == autumn.data().as_object().at("months").as_array()[1]);
  CHECK(months[0].as_object().at("costs") == json::value(costs(0, 0, 0, 0)));
  // The year: the autumn plus e5.
  CHECK(year.data().as_object().at("totals").as_object().at("costs") ==
        json::value(costs(80550, 69027, 11523, 69427)));

  // The cash basis too: the year by the scan, the autumn through the paid index (read from 09-30 to 12-01 in
  // UTC dates, so e4, paid 2026-10-31T22:30Z = 11-01 in Istanbul, lands in November either way).
  auto year_cash = f.report("from=2026-01-01&to=2026-12-31&basis=cash");
  auto autumn_cash = f.report("from=2026-10-01&to=2026-11-30&basis=cash");
  REQUIRE(year_cash.status == 200);
  REQUIRE(autumn_cash.status == 200);
  const auto& cash_months = year_cash.data().as_object().at("months").as_array();
  CHECK(cash_months[9] == autumn_cash.data().as_object().at("months").as_array()[0]);
  CHECK(cash_months[10] == autumn_cash.data().as_object().at("months").as_array()[1]);
  CHECK(cash_months[10].as_object().at("costs") == json::value(costs(62150, 52118, 10032, 52118)));
  // November alone (index from 10-31 UTC): e2 and e4, not e1 or e5.
  auto november = f.report("from=2026-11-01&to=2026-11-30&basis=cash");
  CHECK(november.data().as_object().at("totals").as_object().at("costs") ==
        json::value(costs(62150, 52118, 10032, 52118)));
  // October alone (index up to 11-01 UTC): e1 and e5; e4's UTC date is 10-31 but it is November's.
  auto october = f.report("from=2026-10-01&to=2026-10-31&basis=cash");
  CHECK(october.data().as_object().at("totals").as_object().at("costs") ==
        json::value(costs(13000, 11909, 1091, 11909)));
}
