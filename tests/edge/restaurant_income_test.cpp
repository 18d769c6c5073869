// Restaurant daily income: POST /income upserts one row per branch x business date x channel; GET /income
// reads them back (branchId, from, to; paged).

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

std::string branch(TestEdge& edge, const std::string& body = R"({"name":"Moda"})") {
  auto r = edge.post(kBase + "/branches", body, edge.acme_token);
  REQUIRE(r.status == 201);
  return id_of(r);
}

std::string income(const std::string& branch_id, const std::string& rest) {
  return R"({"branchId":")" + branch_id + R"(",)" + rest + "}";
}
}  // namespace

TEST_CASE("restaurant income: upsert creates one row per branch, day and channel and replaces it") {
  TestEdge edge;
  std::string b = branch(edge);
  auto first = edge.post(kBase + "/income",
                         income(b, R"("businessDate":"2026-11-18","channel":" dine-in ","grossMinor":10000,)"
                                   R"("commissionMinor":0,"zReportMinor":9900)"),
                         edge.acme_token);
  REQUIRE(first.status == 201);
  std::string id = id_of(first);
  CHECK(id.rfind("inc_", 0) == 0);
  json::object expected{{"id", id},
                        {"branchId", b},
                        {"businessDate", "2026-11-18"},
                        {"channel", "dine-in"},
                        {"grossMinor", 10000},
                        {"commissionMinor", 0},
                        {"zReportMinor", 9900},
                        {"netMinor", 10000},
                        {"zReportDiffMinor", 100},
                        {"createdAt", kNow},
                        {"updatedAt", kNow}};
  CHECK(first.json == json::value(json::object{{"data", expected}}));

  edge.clock.advance_ms(60'000);
  auto second = edge.post(kBase + "/income",
                          income(b, R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":12000,)"
                                    R"("commissionMinor":1500)"),
                          edge.acme_token);
  REQUIRE(second.status == 200);
  json::object replaced{{"id", id},
                        {"branchId", b},
                        {"businessDate", "2026-11-18"},
                        {"channel", "dine-in"},
                        {"grossMinor", 12000},
                        {"commissionMinor", 1500},
                        {"zReportMinor", nullptr},
                        {"netMinor", 10500},
                        {"zReportDiffMinor", nullptr},
                        {"createdAt", kNow},
                        {"updatedAt", "2026-11-18T11:07:40.000Z"}};
  CHECK(second.data() == json::value(replaced));
  // The same body again changes nothing but updatedAt.
  REQUIRE(edge.post(kBase + "/income",
                    income(b, R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":12000,)"
                              R"("commissionMinor":1500)"),
                    edge.acme_token)
              .status == 200);

  auto list = edge.get(kBase + "/income?branchId=" + b, edge.acme_token);
  REQUIRE(list.status == 200);
  CHECK(list.header("X-Total-Count") == "1");
  REQUIRE(list.data().as_array().size() == 1);
  CHECK(list.data().as_array()[0] == json::value(replaced));

  // Another channel or day is another row.
  CHECK(edge.post(kBase + "/income",
                  income(b, R"("businessDate":"2026-11-18","channel":"takeaway","grossMinor":1)"),
                  edge.acme_token)
            .status == 201);
  CHECK(edge.post(kBase + "/income",
                  income(b, R"("businessDate":"2026-11-17","channel":"dine-in","grossMinor":2)"),
                  edge.acme_token)
            .status == 201);
  auto all = edge.get(kBase + "/income", edge.acme_token);
  REQUIRE(all.data().as_array().size() == 3);
  CHECK(all.data().as_array()[0].at("businessDate") == "2026-11-17");
  CHECK(all.data().as_array()[1].at("channel") == "dine-in");
  CHECK(all.data().as_array()[2].at("channel") == "takeaway");
}

TEST_CASE("restaurant income: validation errors") {
  TestEdge edge;
  std::string b = branch(edge);
  auto check = [&](const std::string& rest, int status, const std::string& code) {
    auto r = edge.post(kBase + "/income", income(b, rest), edge.acme_token);
    CHECK_MESSAGE(r.status == status, rest);
    CHECK_MESSAGE(r.error() == code, rest);
  };
  check(R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":12.5)", 422, "invalid_amount");
  check(R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":-1)", 422, "invalid_amount");
  check(R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":100,"commissionMinor":0.5)", 422,
        "invalid_amount");
  check(R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":100,"zReportMinor":-5)", 422,
        "invalid_amount");
  check(R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":"100")", 422, "invalid_field");
  check(R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":100,"commissionMinor":101)", 422,
        "commission_exceeds_gross");
  check(R"("businessDate":"2026-11-18","channel":"dine-in")", 422, "missing_field");
  check(R"("businessDate":"2026-11-18","channel":"  ","grossMinor":1)", 422, "invalid_field");
  check(R"("businessDate":"2026-11-18","grossMinor":1)", 422, "missing_field");
  check(R"("businessDate":"2026-11-31","channel":"dine-in","grossMinor":1)", 422, "invalid_date");
  check(R"("businessDate":"2026-11-19","channel":"dine-in","grossMinor":1)", 422, "business_date_in_future");
  auto no_branch = edge.post(kBase + "/income", R"({"channel":"x","grossMinor":1})", edge.acme_token);
  CHECK(no_branch.status == 422);
  CHECK(no_branch.error() == "missing_field");
  CHECK(edge.get(kBase + "/income", edge.acme_token).data().as_array().empty());
  // Commission equal to gross is allowed.
  auto equal = edge.post(
      kBase + "/income",
      income(b, R"("businessDate":"2026-11-18","channel":"app","grossMinor":100,"commissionMinor":100)"),
      edge.acme_token);
  CHECK(equal.status == 201);
  CHECK(equal.data().at("netMinor") == 0);
}

TEST_CASE("restaurant income: the business date follows the branch's time zone and cutoff") {
  TestEdge edge;
  std::string b = branch(edge);  // Europe/Istanbul (UTC+3), cutoff 4
  const std::string tomorrow = R"("businessDate":"2026-11-19","channel":"dine-in","grossMinor":1)";
  CHECK(edge.post(kBase + "/income", income(b, tomorrow), edge.acme_token).error() ==
        "business_date_in_future");

  // 2026-11-18T22:30Z is 01:30 on the 19th in Istanbul: before the cutoff, still business day the 18th.
  edge.clock.set_ms(TestEdge::kStart + 41'000'000);
  CHECK(edge.post(kBase + "/income", income(b, tomorrow), edge.acme_token).error() ==
        "business_date_in_future");
  auto defaulted =
      edge.post(kBase + "/income", income(b, R"("channel":"takeaway","grossMinor":5)"), edge.acme_token);
  REQUIRE(defaulted.status == 201);
  CHECK(defaulted.data().at("businessDate") == "2026-11-18");

  // 2026-11-19T01:00Z is 04:00 in Istanbul: the 19th has begun.
  edge.clock.set_ms(TestEdge::kStart + 50'000'000);
  auto ok = edge.post(kBase + "/income", income(b, tomorrow), edge.acme_token);
  CHECK(ok.status == 201);
  CHECK(ok.data().at("businessDate") == "2026-11-19");

  // The same instant in a UTC branch with cutoff 6 is still the 18th.
  std::string utc = branch(edge, R"({"name":"London","timezone":"UTC","dayCutoffHour":6})");
  CHECK(edge.post(kBase + "/income", income(utc, tomorrow), edge.acme_token).error() ==
        "business_date_in_future");
  CHECK(edge.post(kBase + "/income",
                  income(utc, R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":1)"),
                  edge.acme_token)
            .status == 201);
}

TEST_CASE("restaurant income: branch access") {
  TestEdge edge;
  std::string a = branch(edge);
  std::string b = branch(edge, R"({"name":"Other"})");
  const std::string row = R"("businessDate":"2026-11-18","channel":"dine-in","grossMinor":100)";

  auto unknown = edge.post(kBase + "/income", income("br_nope", row), edge.acme_token);
  CHECK(unknown.status == 404);
  CHECK(unknown.json ==
        json::value(json::object{{"error", "branch_not_found"}, {"message", "branch not found"}}));

  auto g = edge.post("/api/restaurant/companies/globex/branches", R"({"name":"G"})", edge.globex_token);
  auto foreign = edge.post(kBase + "/income", income(id_of(g), row), edge.acme_token);
  CHECK(foreign.status == 404);
  CHECK(foreign.error() == "branch_not_found");

  std::string scoped = edge.token_with("acme", {"restaurant.branch:" + a});
  CHECK(edge.post(kBase + "/income", income(a, row), scoped).status == 201);
  auto denied = edge.post(kBase + "/income", income(b, row), scoped);
  CHECK(denied.status == 403);
  CHECK(denied.error() == "forbidden_branch");
  CHECK(edge.post(kBase + "/income", income(b, row), edge.acme_token).status == 201);

  std::string viewer = edge.token_with("acme", {"restaurant.view"});
  auto viewer_write = edge.post(kBase + "/income", income(a, row), viewer);
  CHECK(viewer_write.status == 403);
  CHECK(viewer_write.error() == "forbidden_branch");

  CHECK(edge.get(kBase + "/income", edge.acme_token).data().as_array().size() == 2);
  CHECK(edge.get(kBase + "/income", viewer).data().as_array().size() == 2);
  auto mine = edge.get(kBase + "/income", scoped);
  REQUIRE(mine.data().as_array().size() == 1);
  CHECK(mine.data().as_array()[0].at("branchId").as_string() == a);
  CHECK(edge.get(kBase + "/income?branchId=" + b, scoped).error() == "branch_not_found");
  CHECK(edge.get(kBase + "/income?branchId=br_nope", edge.acme_token).error() == "branch_not_found");
}

TEST_CASE("restaurant income: from, to and paging") {
  TestEdge edge;
  std::string b = branch(edge);
  for (const char* day : {"2026-11-14", "2026-11-15", "2026-11-16", "2026-11-17"})
    REQUIRE(
        edge.post(kBase + "/income",
                  income(b, std::string(R"("businessDate":")") + day + R"(","channel":"c","grossMinor":1)"),
                  edge.acme_token)
            .status == 201);
  auto window = edge.get(kBase + "/income?from=2026-11-15&to=2026-11-16", edge.acme_token);
  REQUIRE(window.data().as_array().size() == 2);
  CHECK(window.data().as_array()[0].at("businessDate") == "2026-11-15");
  CHECK(window.data().as_array()[1].at("businessDate") == "2026-11-16");
  auto page = edge.get(kBase + "/income?limit=1&skip=3", edge.acme_token);
  CHECK(page.header("X-Total-Count") == "4");
  REQUIRE(page.data().as_array().size() == 1);
  CHECK(page.data().as_array()[0].at("businessDate") == "2026-11-17");
  auto bad = edge.get(kBase + "/income?from=15-11-2026", edge.acme_token);
  CHECK(bad.status == 422);
  CHECK(bad.error() == "invalid_date");
  auto bad_limit = edge.get(kBase + "/income?limit=0", edge.acme_token);
  CHECK(bad_limit.status == 422);
  CHECK(bad_limit.error() == "invalid_field");
}
