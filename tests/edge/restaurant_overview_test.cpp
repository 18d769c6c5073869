// Restaurant overview: today's takings, open tabs, overdue payables and the month so far, per branch and in
// total, against a fixture computed by hand. The clock: 2026-11-18T11:06:40Z, 14:06 in Istanbul (business
// and calendar date 2026-11-18) and 06:06 in New York (2026-11-18 too: after the 04:00 cutoff).

#include <doctest/doctest.h>

#include "edge/app.h"
#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

json::object figures(std::int64_t payments, std::int64_t payment_count, json::object income_today,
                     std::int64_t tabs, std::int64_t tabs_due, std::int64_t overdue,
                     std::int64_t overdue_minor, json::object month_costs, json::object month_income) {
  return {
      {"today", json::object{{"orderPaymentsMinor", payments},
                             {"orderPaymentCount", payment_count},
                             {"income", std::move(income_today)}}},
      {"openTabs", json::object{{"count", tabs}, {"dueMinor", tabs_due}}},
      {"overdue", json::object{{"count", overdue}, {"totalMinor", overdue_minor}}},
      {"monthToDate", json::object{{"costs", std::move(month_costs)}, {"income", std::move(month_income)}}}};
}

// Moda (Istanbul):
//   orders today: O1 2 x 5000 = 10000, paid 4000 cash (open, 6000 due); O2 1 x 5000 paid 5000 card, closed.
//     -> today's order payments 9000 in 2 payments; one open tab with 6000 due.
//   income: today takeaway 7000 - 700 commission; 11-02 dine-in 10000; 10-31 dine-in 8000 (last month).
//   expenses (gross @ rate -> vat, net):
//     X1 accrual 11-05  2400 @ 20 %  -> 400, 2000  due 11-10 unpaid: overdue
//     X2 accrual 11-18   999 @ 0 %   ->   0,  999  due 11-20 unpaid: not yet due
//     X3 accrual 10-28  5000 @ 20 %  -> 833, 4167  due 11-17 unpaid: overdue (accrued last month)
//     X4 accrual 11-02  1100 @ 10 %  -> 100, 1000  due 11-01, paid: not overdue
//   overdue: X1 + X3 = 2 items, 7400. Month to date (accrual 11-01..11-18): X1 + X2 + X4 =
//     gross 4499, net 3999, vat 500, cost 3999; income 7000 + 10000 = 17000, commission 700, net 16300.
// Kadikoy (America/New_York, business date 11-18): income today dine-in 1000; nothing else.
// Eski (inactive): an income row today of 500, left out of the overview without branchId.
struct Fixture {
  TestEdge edge{unthrottled()};
  std::string moda, kadikoy, eski, food;

  Fixture() {
    moda = create(edge, "/branches", R"({"name":"Moda","order":1})");
    kadikoy = create(edge, "/branches", R"({"name":"Kadikoy","order":2,"timezone":"America/New_York"})");
    eski = create(edge, "/branches", R"({"name":"Eski","order":3,"active":false})");
    food = create(edge, "/categories", R"({"name":"Food"})");
    std::string soup = create(edge, "/products", R"({"name":"Soup","priceMinor":5000,"vatRateBps":1000})");

    std::string o1 = order("o1", soup, 2);
    pay(o1, "p1", 4000, "cash");
    std::string o2 = order("o2", soup, 1);
    pay(o2, "p2", 5000, "card");
    auto closed = edge.post(kBase + "/orders/" + o2 + "/close", "{}", edge.acme_token);
    REQUIRE(closed.status == 200);

    income_row(moda, "2026-11-18", "takeaway", 7000, 700);
    income_row(moda, "2026-11-02", "dine-in", 10000, 0);
    income_row(moda, "2026-10-31", "dine-in", 8000, 0);
    income_row(kadikoy, "2026-11-18", "dine-in", 1000, 0);
    income_row(eski, "2026-11-18", "dine-in", 500, 0);

    expense(2400, 2000, "2026-11-05", "\"2026-11-10\"", "null");
    expense(999, 0, "2026-11-18", "\"2026-11-20\"", "null");
    expense(5000, 2000, "2026-10-28", "\"2026-11-17\"", "null");
    expense(1100, 1000, "2026-11-02", "\"2026-11-01\"", "\"2026-11-01T09:00:00Z\"");
  }

  std::string order(const std::string& key, const std::string& product, int quantity) {
    return create(edge, "/orders",
                  R"({"branchId":")" + moda + R"(","clientOrderId":")" + key +
                      R"(","items":[{"productId":")" + product + R"(","quantity":)" +
                      std::to_string(quantity) + "}]}");
  }

  void pay(const std::string& order_id, const std::string& payment_id, int amount,
           const std::string& method) {
    create(edge, "/orders/" + order_id + "/payments",
           R"({"paymentId":")" + payment_id + R"(","amountMinor":)" + std::to_string(amount) +
               R"(,"method":")" + method + R"("})");
  }

  void income_row(const std::string& branch, const std::string& day, const std::string& channel, int gross,
                  int commission) {
    create(edge, "/income",
           R"({"branchId":")" + branch + R"(","businessDate":")" + day + R"(","channel":")" + channel +
               R"(","grossMinor":)" + std::to_string(gross) + R"(,"commissionMinor":)" +
               std::to_string(commission) + "}");
  }

  void expense(int gross, int bps, const std::string& accrual, const std::string& due,
               const std::string& paid) {
    create(edge, "/expenses",
           R"({"branchId":")" + moda + R"(","categoryId":")" + food + R"(","grossMinor":)" +
               std::to_string(gross) + R"(,"vatRateBps":)" + std::to_string(bps) + R"(,"accrualDate":")" +
               accrual + R"(","dueDate":)" + due + R"(,"paidAt":)" + paid + "}");
  }
};

json::object moda_figures() {
  return figures(9000, 2, income(7000, 700, 6300), 1, 6000, 2, 7400, costs(4499, 3999, 500, 3999),
                 income(17000, 700, 16300));
}

json::object kadikoy_figures() {
  return figures(0, 0, income(1000, 0, 1000), 0, 0, 0, 0, costs(0, 0, 0, 0), income(1000, 0, 1000));
}

json::object with_branch(json::object figures, const std::string& id, const std::string& name) {
  json::object out{{"branchId", id},
                   {"name", name},
                   {"businessDate", "2026-11-18"},
                   {"calendarDate", "2026-11-18"},
                   {"monthFrom", "2026-11-01"}};
  for (auto& [k, v] : figures) out[k] = v;
  return out;
}

}  // namespace

TEST_CASE("restaurant overview: every active branch the caller sees, and the totals") {
  Fixture f;
  auto r = f.edge.get(kBase + "/overview", f.edge.acme_token);
  INFO(r.body);
  REQUIRE(r.status == 200);
  const auto& d = r.data().as_object();
  REQUIRE(d.at("branches").as_array().size() == 2);  // Eski is inactive
  CHECK(d.at("branches").as_array()[0].as_object() == with_branch(moda_figures(), f.moda, "Moda"));
  CHECK(d.at("branches").as_array()[1].as_object() == with_branch(kadikoy_figures(), f.kadikoy, "Kadikoy"));
  // Totals: Moda + Kadikoy.
  CHECK(d.at("totals").as_object() == figures(9000, 2, income(8000, 700, 7300), 1, 6000, 2, 7400,
                                              costs(4499, 3999, 500, 3999), income(18000, 700, 17300)));
}

TEST_CASE("restaurant overview: one branch, inactive ones by id, branch-limited tokens and errors") {
  Fixture f;
  auto one = f.edge.get(kBase + "/overview?branchId=" + f.moda, f.edge.acme_token);
  REQUIRE(one.status == 200);
  REQUIRE(one.data().as_object().at("branches").as_array().size() == 1);
  CHECK(one.data().as_object().at("totals").as_object() == moda_figures());

  // An inactive branch asked for by id is shown (its history stays readable).
  auto eski = f.edge.get(kBase + "/overview?branchId=" + f.eski, f.edge.acme_token);
  REQUIRE(eski.status == 200);
  CHECK(eski.data().as_object().at("totals").as_object() ==
        figures(0, 0, income(500, 0, 500), 0, 0, 0, 0, costs(0, 0, 0, 0), income(500, 0, 500)));

  std::string limited = f.edge.token_with("acme", {"restaurant.branch:" + f.kadikoy});
  auto seen = f.edge.get(kBase + "/overview", limited);
  REQUIRE(seen.status == 200);
  REQUIRE(seen.data().as_object().at("branches").as_array().size() == 1);
  CHECK(seen.data().as_object().at("totals").as_object() == kadikoy_figures());
  CHECK(f.edge.get(kBase + "/overview?branchId=" + f.moda, limited).status == 404);
  CHECK(f.edge.get(kBase + "/overview?branchId=br_nope", f.edge.acme_token).status == 404);
  CHECK(f.edge.get("/api/restaurant/companies/acme/overview", f.edge.globex_token).status == 404);
}

TEST_CASE("restaurant overview: the next business day starts from zero takings at the cutoff") {
  Fixture f;
  // 2026-11-19T00:30Z is 03:30 on the 19th in Istanbul: still business day 18 (cutoff 04:00), but calendar
  // day 19, so X2 (due 11-20) is still not overdue while takings stay.
  f.edge.clock.set_ms(TestEdge::kStart + (13 * 3600 + 23 * 60 + 20) * 1000);
  auto before = f.edge.get(kBase + "/overview?branchId=" + f.moda, f.edge.acme_token);
  REQUIRE(before.status == 200);
  const auto& b = before.data().as_object().at("branches").as_array()[0].as_object();
  CHECK(b.at("businessDate").as_string() == "2026-11-18");
  CHECK(b.at("calendarDate").as_string() == "2026-11-19");
  CHECK(b.at("today").as_object().at("orderPaymentsMinor").as_int64() == 9000);
  CHECK(b.at("overdue").as_object().at("count").as_int64() == 2);

  // 04:00 local: business day 19. No takings yet; the open tab (O1, 6000 due) stays open across the day.
  f.edge.clock.set_ms(TestEdge::kStart + (13 * 3600 + 53 * 60 + 20) * 1000);
  auto after = f.edge.get(kBase + "/overview?branchId=" + f.moda, f.edge.acme_token);
  const auto& a = after.data().as_object().at("branches").as_array()[0].as_object();
  CHECK(a.at("businessDate").as_string() == "2026-11-19");
  CHECK(a.at("today").as_object().at("orderPaymentsMinor").as_int64() == 0);
  CHECK(a.at("today").as_object().at("income").as_object() == income(0, 0, 0));
  CHECK(a.at("openTabs").as_object() == json::object{{"count", 1}, {"dueMinor", 6000}});
}

TEST_CASE("restaurant overview: totals beyond the integer range answer invalid_amount, never wrap") {
  TestEdge edge;
  // Stored rows beyond the API's rules (data written by an older version, a restore): one income row of
  // 5 * 10^18 today in each of two branches. Each branch's figures fit int64 (about 9.22 * 10^18); their
  // total does not, and must not wrap to a negative number.
  auto company = edge.server->app().accounts->company_by_slug("acme");
  REQUIRE(company);
  const std::int64_t huge = 5'000'000'000'000'000'000;
  for (const char* name : {"Moda", "Kadikoy"}) {
    std::string branch = create(edge, "/branches", std::string(R"({"name":")") + name + "\"}");
    json::object row{{"id", "inc_" + branch},   {"branchId", branch}, {"businessDate", "2026-11-18"},
                     {"channel", "card"},       {"grossMinor", huge}, {"commissionMinor", 0},
                     {"zReportMinor", nullptr}, {"netMinor", huge},   {"zReportDiffMinor", nullptr},
                     {"createdAt", kNow},       {"updatedAt", kNow}};
    auto& app = edge.server->app();
    REQUIRE(app.kv
                ->write([&](store::WriteTxn& txn) -> core::Status {
                  txn.put(app.restaurant_table, "c/" + company->id + "/income/" + branch + "/2026-11-18/card",
                          core::to_json(row));
                  return {};
                })
                .ok());
    auto one = edge.get(kBase + "/overview?branchId=" + branch, edge.acme_token);
    REQUIRE(one.status == 200);
    CHECK(one.data().at("totals").at("today").at("income").at("grossMinor") == huge);
  }
  auto both = edge.get(kBase + "/overview", edge.acme_token);
  CHECK(both.status == 422);
  CHECK(both.error() == "invalid_amount");
}
