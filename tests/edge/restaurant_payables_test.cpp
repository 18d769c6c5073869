// Restaurant payables: GET /payables/upcoming groups unpaid expenses with a due date against each branch's
// local calendar date; POST /payables/{id}/pay settles one. The fixture clock is 2026-11-18T11:06:40Z,
// Wednesday 14:06 in Istanbul: overdue < 18 Nov, thisWeek 18..22 Nov (Sunday), thisMonth 23..30 Nov, later.

#include <doctest/doctest.h>

#include <algorithm>

#include "edge/accounts/accounts.h"
#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

struct Fixture {
  TestEdge edge;
  std::string branch = create(edge, "/branches", R"({"name":"Moda"})");
  std::string category = create(edge, "/categories", R"({"name":"Produce"})");

  // An expense of `branch_id` with gross `gross` at 20 %; `rest` adds members (dueDate, paidAt, ...).
  std::string expense(const std::string& branch_id, std::int64_t gross, const std::string& rest) {
    return create(edge, "/expenses",
                  R"({"branchId":")" + branch_id + R"(","categoryId":")" + category + R"(","grossMinor":)" +
                      std::to_string(gross) + R"(,"vatRateBps":2000,"accrualDate":"2026-11-01")" + rest +
                      "}");
  }
  std::string due(const std::string& branch_id, std::int64_t gross, const std::string& day) {
    return expense(branch_id, gross, R"(,"dueDate":")" + day + "\"");
  }

  testing::Reply upcoming(const std::string& query = "", const std::string& token = "") {
    return edge.get(kBase + "/payables/upcoming" + query, token.empty() ? edge.acme_token : token);
  }
  testing::Reply pay(const std::string& id, const std::string& body, const std::string& token = "") {
    return edge.post(kBase + "/payables/" + id + "/pay", body, token.empty() ? edge.acme_token : token);
  }
};

// Each group as key -> (item ids, totalMinor), checking the fixed order of the four keys.
struct Groups {
  std::vector<std::string> overdue, thisWeek, thisMonth, later;
  std::vector<std::int64_t> totals;
};
Groups groups_of(const testing::Reply& r) {
  REQUIRE(r.status == 200);
  const auto& groups = r.data().at("groups").as_array();
  REQUIRE(groups.size() == 4);
  Groups out;
  std::vector<std::string>* lists[] = {&out.overdue, &out.thisWeek, &out.thisMonth, &out.later};
  const char* keys[] = {"overdue", "thisWeek", "thisMonth", "later"};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(groups[i].at("key") == keys[i]);
    for (auto& item : groups[i].at("items").as_array()) lists[i]->emplace_back(item.at("id").as_string());
    out.totals.push_back(groups[i].at("totalMinor").as_int64());
  }
  return out;
}

using Ids = std::vector<std::string>;
}  // namespace

TEST_CASE("restaurant payables: grouped against the branch's calendar today") {
  Fixture f;
  std::string d17 = f.due(f.branch, 100, "2026-11-17");
  std::string d18 = f.due(f.branch, 200, "2026-11-18");
  std::string d18b = f.due(f.branch, 250, "2026-11-18");
  std::string d22 = f.due(f.branch, 300, "2026-11-22");
  std::string d23 = f.due(f.branch, 400, "2026-11-23");
  std::string d30 = f.due(f.branch, 500, "2026-11-30");
  std::string d01 = f.due(f.branch, 600, "2026-12-01");
  f.expense(f.branch, 700, "");                                                            // no due date
  f.expense(f.branch, 800, R"(,"dueDate":"2026-11-19","paidAt":"2026-11-18T08:00:00Z")");  // already paid

  auto r = f.upcoming("?branchId=" + f.branch);
  auto g = groups_of(r);
  CHECK(g.overdue == Ids{d17});
  Ids same_day = d18 < d18b ? Ids{d18, d18b} : Ids{d18b, d18};  // same due date: by id
  CHECK(g.thisWeek == Ids{same_day[0], same_day[1], d22});
  CHECK(g.thisMonth == Ids{d23, d30});
  CHECK(g.later == Ids{d01});
  CHECK(g.totals == std::vector<std::int64_t>{100, 750, 900, 600});
  // Items are the full expense records: 100 at 20 % -> vat 100*2000/12000 = 16.67 -> 17, net 83.
  auto item = r.data().at("groups").as_array()[0].at("items").as_array()[0];
  CHECK(item == f.edge.get(kBase + "/expenses/" + d17, f.edge.acme_token).data());
  CHECK(item.at("vatMinor") == 17);
  CHECK(item.at("netMinor") == 83);

  // Without branchId: every visible branch; the same here.
  auto all = groups_of(f.upcoming());
  CHECK(all.thisWeek == g.thisWeek);
  CHECK(all.totals == g.totals);

  // 2026-11-18T23:20:00Z is 02:20 on Thursday the 19th in Istanbul: a calendar date (no business-day
  // cutoff), so the 18th is now overdue.
  f.edge.clock.set_ms(TestEdge::kStart + 44'000'000);
  auto next = groups_of(f.upcoming("?branchId=" + f.branch));
  CHECK(next.overdue == Ids{d17, same_day[0], same_day[1]});
  CHECK(next.thisWeek == Ids{d22});
}

TEST_CASE("restaurant payables: a branch whose calendar date differs") {
  Fixture f;
  // At 11:06:40Z Kiritimati (UTC+14) is 01:06:40 on Thursday 19 November.
  std::string kiri = create(f.edge, "/branches", R"({"name":"Kiritimati","timezone":"Pacific/Kiritimati"})");
  std::string ist18 = f.due(f.branch, 10, "2026-11-18");
  std::string kiri18 = f.due(kiri, 20, "2026-11-18");
  std::string kiri19 = f.due(kiri, 40, "2026-11-19");

  auto k = groups_of(f.upcoming("?branchId=" + kiri));
  CHECK(k.overdue == Ids{kiri18});
  CHECK(k.thisWeek == Ids{kiri19});
  CHECK(k.totals == std::vector<std::int64_t>{20, 40, 0, 0});

  // All branches: each expense against its own branch's today.
  auto all = groups_of(f.upcoming());
  CHECK(all.overdue == Ids{kiri18});
  CHECK(all.thisWeek == Ids{ist18, kiri19});  // by dueDate: the 18th, then the 19th
  CHECK(all.totals == std::vector<std::int64_t>{20, 50, 0, 0});

  // 2026-11-23T05:00Z: Monday 08:00 in Istanbul, Sunday 21:00 on the 22nd in Los Angeles (UTC-8).
  std::string la = create(f.edge, "/branches", R"({"name":"LA","timezone":"America/Los_Angeles"})");
  std::string la22 = f.due(la, 1, "2026-11-22");
  std::string la23 = f.due(la, 2, "2026-11-23");
  std::string ist22 = f.due(f.branch, 3, "2026-11-22");
  std::string ist23 = f.due(f.branch, 4, "2026-11-23");
  f.edge.clock.set_ms(1'795'410'000'000);  // 2026-11-23T05:00:00Z
  auto l = groups_of(f.upcoming("?branchId=" + la));
  CHECK(l.thisWeek == Ids{la22});   // Sunday: the week is that day only
  CHECK(l.thisMonth == Ids{la23});  // Monday the 23rd is after that Sunday
  auto i = groups_of(f.upcoming("?branchId=" + f.branch));
  CHECK(i.overdue == Ids{ist18, ist22});
  CHECK(i.thisWeek == Ids{ist23});
}

TEST_CASE("restaurant payables: pay") {
  Fixture f;
  // 1200 at 20 % -> vat 200, net 1000.
  std::string bill = f.expense(f.branch, 1200, R"(,"dueDate":"2026-11-20","paymentMethod":"cash")");
  auto mismatch = f.pay(bill, R"({"amountMinor":1000,"paymentMethod":"transfer"})");
  CHECK(mismatch.status == 422);
  CHECK(mismatch.error() == "amount_mismatch");
  CHECK(f.pay(bill, R"({"amountMinor":1200.5})").error() == "invalid_amount");
  CHECK(f.pay(bill, R"({"paymentMethod":"transfer"})").error() == "missing_field");
  CHECK(f.pay(bill, R"({"amountMinor":1200,"paymentMethod":""})").error() == "invalid_field");
  CHECK(f.pay(bill, R"({"amountMinor":1200,"paidAt":"yesterday"})").error() == "invalid_timestamp");
  CHECK(groups_of(f.upcoming()).thisWeek == Ids{bill});

  f.edge.clock.advance_ms(1000);
  auto paid = f.pay(bill, R"({"amountMinor":1200,"paymentMethod":" transfer "})");
  REQUIRE(paid.status == 200);
  CHECK(paid.data().at("paidAt") == "2026-11-18T11:06:41.000Z");
  CHECK(paid.data().at("paymentMethod") == "transfer");
  CHECK(paid.data().at("updatedAt") == "2026-11-18T11:06:41.000Z");
  CHECK(paid.data().at("createdAt") == kNow);
  CHECK(paid.data().at("dueDate") == "2026-11-20");
  CHECK(paid.data().at("netMinor") == 1000);
  CHECK(f.edge.get(kBase + "/expenses/" + bill, f.edge.acme_token).data() == paid.data());
  auto after = groups_of(f.upcoming());
  CHECK(after.thisWeek.empty());
  CHECK(after.totals == std::vector<std::int64_t>{0, 0, 0, 0});

  auto again = f.pay(bill, R"({"amountMinor":1200,"paymentMethod":"transfer"})");
  CHECK(again.status == 409);
  CHECK(again.error() == "already_paid");
  CHECK(f.pay(bill, R"({"amountMinor":1,"paymentMethod":"transfer"})").error() == "already_paid");

  // Without a due date, an unpaid expense can still be paid; paidAt may be given; the method is kept when
  // omitted.
  std::string cash = f.expense(f.branch, 50, "");
  auto explicit_time = f.pay(cash, R"({"amountMinor":50,"paidAt":"2026-11-17T10:00:00+03:00"})");
  REQUIRE(explicit_time.status == 200);
  CHECK(explicit_time.data().at("paidAt") == "2026-11-17T07:00:00.000Z");
  CHECK(explicit_time.data().at("paymentMethod") == "cash");
  // Recorded as paid on creation: already paid.
  std::string prepaid = f.expense(f.branch, 70, R"(,"paidAt":"2026-11-01T09:00:00Z")");
  CHECK(f.pay(prepaid, R"({"amountMinor":70})").status == 409);

  auto unknown = f.pay("exp_nope", R"({"amountMinor":1})");
  CHECK(unknown.status == 404);
  CHECK(unknown.error() == "expense_not_found");
}

TEST_CASE("restaurant payables: branch access and company isolation") {
  Fixture f;
  std::string other = create(f.edge, "/branches", R"({"name":"Other"})");
  std::string mine = f.due(f.branch, 100, "2026-11-19");
  std::string theirs = f.due(other, 200, "2026-11-19");
  std::string scoped = f.edge.token_with("acme", {"restaurant.branch:" + f.branch});

  auto visible = groups_of(f.upcoming("", scoped));
  CHECK(visible.thisWeek == Ids{mine});
  CHECK(visible.totals == std::vector<std::int64_t>{0, 100, 0, 0});
  CHECK(f.upcoming("?branchId=" + other, scoped).error() == "branch_not_found");
  auto unknown = f.upcoming("?branchId=br_nope");
  CHECK(unknown.status == 404);
  CHECK(unknown.error() == "branch_not_found");

  auto denied = f.pay(theirs, R"({"amountMinor":200})", scoped);
  CHECK(denied.status == 403);
  CHECK(denied.error() == "forbidden_branch");
  auto viewer = f.pay(mine, R"({"amountMinor":100})", f.edge.token_with("acme", {"restaurant.view"}));
  CHECK(viewer.status == 403);
  CHECK(viewer.error() == "forbidden_branch");
  CHECK(f.pay(mine, R"({"amountMinor":100})", scoped).status == 200);

  // globex sees none of acme's payables and cannot pay them.
  auto foreign = f.edge.post("/api/restaurant/companies/globex/payables/" + theirs + "/pay",
                             R"({"amountMinor":200})", f.edge.globex_token);
  CHECK(foreign.status == 404);
  CHECK(foreign.error() == "expense_not_found");
  auto g = f.edge.get("/api/restaurant/companies/globex/payables/upcoming", f.edge.globex_token);
  REQUIRE(g.status == 200);
  for (auto& group : g.data().at("groups").as_array()) CHECK(group.at("items").as_array().empty());
  CHECK(groups_of(f.upcoming()).thisWeek == Ids{theirs});
}

TEST_CASE("restaurant payables: the stored keys and the payables index") {
  Fixture f;
  edge::App& app = f.edge.server->app();
  auto company = app.accounts->company_by_slug("acme");
  REQUIRE(company);
  const std::string c = "c/" + company->id + "/";
  auto keys = [&](const std::string& prefix) {
    std::vector<std::string> out;
    REQUIRE(app.kv
                ->read([&](const store::ReadTxn& txn) -> core::Status {
                  out.clear();
                  txn.scan(app.restaurant_table, prefix, [&](std::string_view k, std::string_view) {
                    out.emplace_back(k);
                    return true;
                  });
                  return {};
                })
                .ok());
    return out;
  };
  std::string bill = f.due(f.branch, 1200, "2026-11-20");
  std::string plain = f.expense(f.branch, 10, "");
  std::string prepaid = f.expense(f.branch, 20, R"(,"dueDate":"2026-11-20","paidAt":"2026-11-01T09:00:00Z")");
  Ids expense_keys{c + "expense/" + bill, c + "expense/" + plain, c + "expense/" + prepaid};
  std::sort(expense_keys.begin(), expense_keys.end());
  CHECK(keys(c + "expense/") == expense_keys);
  // Only the unpaid expense with a due date is indexed.
  CHECK(keys(c + "payable/") == Ids{c + "payable/" + f.branch + "/2026-11-20/" + bill});

  REQUIRE(f.pay(bill, R"({"amountMinor":1200})").status == 200);
  CHECK(keys(c + "payable/").empty());
  CHECK(keys(c + "expense/") == expense_keys);
  CHECK(f.pay(plain, R"({"amountMinor":10})").status == 200);
  CHECK(keys(c + "payable/").empty());
}
