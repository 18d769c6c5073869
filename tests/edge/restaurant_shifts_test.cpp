// Restaurant shifts: one open shift per branch (also when two opens race), the current shift, closing with
// the counted cash. The expected cash from order payments is covered in restaurant_shift_cash_test.cpp.

#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

std::string branch(TestEdge& edge, const std::string& body = R"({"name":"Moda"})") {
  auto r = edge.post(kBase + "/branches", body, edge.acme_token);
  REQUIRE(r.status == 201);
  return str(r.data(), "id");
}

std::string open_body(const std::string& branch_id, std::int64_t float_minor) {
  return R"({"branchId":")" + branch_id + R"(","openingFloatMinor":)" + std::to_string(float_minor) + "}";
}
}  // namespace

TEST_CASE("restaurant shifts: open, read current, close with the count; then a new one may open") {
  TestEdge edge;
  std::string b = branch(edge);
  CHECK(edge.get(kBase + "/shifts/current?branchId=" + b, edge.acme_token).body == R"({"data":null})");

  auto opened = edge.post(kBase + "/shifts", open_body(b, 20000), edge.acme_token);
  REQUIRE(opened.status == 201);
  std::string id = str(opened.data(), "id");
  CHECK(id.rfind("shf_", 0) == 0);
  json::object expected{{"id", id},
                        {"branchId", b},
                        {"businessDate", "2026-11-18"},
                        {"status", "open"},
                        {"openingFloatMinor", 20000},
                        {"openedAt", kNow},
                        {"closedAt", nullptr},
                        {"countedCashMinor", nullptr},
                        {"cashPaymentsMinor", nullptr},
                        {"expectedCashMinor", nullptr},
                        {"differenceMinor", nullptr},
                        {"createdAt", kNow},
                        {"updatedAt", kNow}};
  CHECK(opened.data().as_object() == expected);
  auto current = edge.get(kBase + "/shifts/current?branchId=" + b, edge.acme_token);
  CHECK(current.status == 200);
  CHECK(current.data().as_object() == expected);

  // A second open fails and names the open shift.
  auto second = edge.post(kBase + "/shifts", open_body(b, 5000), edge.acme_token);
  CHECK(second.status == 409);
  CHECK(str(second.json, "error") == "shift_already_open");
  CHECK(str(second.json.as_object().at("shift"), "id") == id);

  // Closing 8 hours later with no payments: expected = float 20000; counted 19950 -> 50 short.
  edge.clock.advance_ms(8 * 3600 * 1000);
  auto closed =
      edge.post(kBase + "/shifts/" + id + "/close", R"({"countedCashMinor":19950})", edge.acme_token);
  REQUIRE(closed.status == 200);
  const auto& c = closed.data().as_object();
  CHECK(c.at("status").as_string() == "closed");
  CHECK(c.at("closedAt").as_string() == "2026-11-18T19:06:40.000Z");
  CHECK(c.at("countedCashMinor").as_int64() == 19950);
  CHECK(c.at("cashPaymentsMinor").as_int64() == 0);
  CHECK(c.at("expectedCashMinor").as_int64() == 20000);
  CHECK(c.at("differenceMinor").as_int64() == -50);
  CHECK(c.at("openedAt").as_string() == kNow);

  // Closed twice: 409 shift_not_open, the closed shift in the body, nothing changed.
  auto again = edge.post(kBase + "/shifts/" + id + "/close", R"({"countedCashMinor":1})", edge.acme_token);
  CHECK(again.status == 409);
  CHECK(str(again.json, "error") == "shift_not_open");
  CHECK(again.json.as_object().at("shift").as_object().at("countedCashMinor").as_int64() == 19950);

  CHECK(edge.get(kBase + "/shifts/current?branchId=" + b, edge.acme_token).body == R"({"data":null})");
  auto next = edge.post(kBase + "/shifts", open_body(b, 0), edge.acme_token);
  CHECK(next.status == 201);
  CHECK(str(next.data(), "id") != id);

  auto history = edge.get(kBase + "/shifts?branchId=" + b, edge.acme_token);
  REQUIRE(history.status == 200);
  REQUIRE(history.data().as_array().size() == 2);
  CHECK(str(history.data().as_array()[0], "id") == str(next.data(), "id"));  // newest first
  CHECK(edge.get(kBase + "/shifts/" + id, edge.acme_token).data().as_object() == c);
}

TEST_CASE("restaurant shifts: two opens at once give one shift") {
  TestEdge edge;
  std::string b = branch(edge);
  for (int round = 0; round < 5; ++round) {
    std::atomic<int> created{0}, refused{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 2; ++i) {
      threads.emplace_back([&] {
        httplib::Client c("127.0.0.1", edge.server->port());
        c.set_bearer_token_auth(edge.acme_token);
        auto res = c.Post(kBase + "/shifts", open_body(b, 1000), "application/json");
        if (res && res->status == 201)
          ++created;
        else if (res && res->status == 409 && res->body.find("shift_already_open") != std::string::npos)
          ++refused;
      });
    }
    for (auto& t : threads) t.join();
    CHECK(created == 1);
    CHECK(refused == 1);
    auto current = edge.get(kBase + "/shifts/current?branchId=" + b, edge.acme_token);
    REQUIRE(current.data().is_object());
    auto closed = edge.post(kBase + "/shifts/" + str(current.data(), "id") + "/close",
                            R"({"countedCashMinor":1000})", edge.acme_token);
    CHECK(closed.status == 200);
  }
  CHECK(edge.get(kBase + "/shifts?branchId=" + b, edge.acme_token).data().as_array().size() == 5);
}

TEST_CASE(
    "restaurant shifts: business date from the branch's cutoff; one open shift per branch, not company") {
  TestEdge edge;
  std::string moda = branch(edge);
  std::string kadikoy = branch(edge, R"({"name":"Kadikoy","dayCutoffHour":0})");
  // 2026-11-18T23:30:00Z is 02:30 on the 19th in Istanbul: before the default 04:00 cutoff it is still
  // business day 18 at Moda; with cutoff 0 Kadikoy is already on the 19th.
  edge.clock.set_ms(TestEdge::kStart + (12 * 3600 + 23 * 60 + 20) * 1000);  // 23:30:00Z
  auto a = edge.post(kBase + "/shifts", open_body(moda, 0), edge.acme_token);
  auto k = edge.post(kBase + "/shifts", open_body(kadikoy, 0), edge.acme_token);
  REQUIRE(a.status == 201);
  REQUIRE(k.status == 201);
  CHECK(str(a.data(), "openedAt") == "2026-11-18T23:30:00.000Z");
  CHECK(str(a.data(), "businessDate") == "2026-11-18");
  CHECK(str(k.data(), "businessDate") == "2026-11-19");
}

TEST_CASE("restaurant shifts: errors") {
  TestEdge edge;
  std::string b = branch(edge);
  std::string other = branch(edge, R"({"name":"Other"})");
  auto code = [](const testing::Reply& r) { return str(r.json, "error"); };

  auto r = edge.post(kBase + "/shifts", R"({"openingFloatMinor":1})", edge.acme_token);
  CHECK(r.status == 422);
  CHECK(code(r) == "missing_field");
  r = edge.post(kBase + "/shifts", R"({"branchId":")" + b + R"("})", edge.acme_token);
  CHECK(r.status == 422);
  CHECK(code(r) == "missing_field");
  r = edge.post(kBase + "/shifts", R"({"branchId":")" + b + R"(","openingFloatMinor":100.5})",
                edge.acme_token);
  CHECK(r.status == 422);
  CHECK(code(r) == "invalid_amount");
  r = edge.post(kBase + "/shifts", open_body(b, -1), edge.acme_token);
  CHECK(r.status == 422);
  CHECK(code(r) == "invalid_amount");
  r = edge.post(kBase + "/shifts", R"({"branchId":")" + b + R"(","openingFloatMinor":"100"})",
                edge.acme_token);
  CHECK(r.status == 422);
  CHECK(code(r) == "invalid_field");
  r = edge.post(kBase + "/shifts", open_body("br_nope", 1), edge.acme_token);
  CHECK(r.status == 404);
  CHECK(code(r) == "branch_not_found");
  r = edge.post(kBase + "/shifts", "{", edge.acme_token);
  CHECK(r.status == 400);
  CHECK(code(r) == "invalid_json");
  CHECK(code(edge.get(kBase + "/shifts/current", edge.acme_token)) == "missing_field");
  CHECK(edge.get(kBase + "/shifts/current?branchId=br_nope", edge.acme_token).status == 404);
  CHECK(code(edge.get(kBase + "/shifts/shf_nope", edge.acme_token)) == "shift_not_found");
  CHECK(code(edge.post(kBase + "/shifts/shf_nope/close", R"({"countedCashMinor":1})", edge.acme_token)) ==
        "shift_not_found");
  // Nothing was opened by the refused requests.
  CHECK(edge.get(kBase + "/shifts", edge.acme_token).data().as_array().empty());

  // A token limited to another branch: 403 forbidden_branch to open or close, and it cannot see the shift.
  auto opened = edge.post(kBase + "/shifts", open_body(b, 100), edge.acme_token);
  REQUIRE(opened.status == 201);
  std::string id = str(opened.data(), "id");
  std::string limited = edge.token_with("acme", {"restaurant.branch:" + other});
  r = edge.post(kBase + "/shifts", open_body(b, 1), limited);
  CHECK(r.status == 403);
  CHECK(code(r) == "forbidden_branch");
  CHECK(edge.get(kBase + "/shifts/" + id, limited).status == 404);
  CHECK(edge.post(kBase + "/shifts/" + id + "/close", R"({"countedCashMinor":1})", limited).status == 404);
  std::string mine = edge.token_with("acme", {"restaurant.branch:" + b});
  auto bad_count = edge.post(kBase + "/shifts/" + id + "/close", R"({"countedCashMinor":-3})", mine);
  CHECK(bad_count.status == 422);
  CHECK(code(bad_count) == "invalid_amount");
  std::string viewer = edge.token_with("acme", {"restaurant.view"});
  r = edge.post(kBase + "/shifts/" + id + "/close", R"({"countedCashMinor":1})", viewer);
  CHECK(r.status == 403);
  CHECK(code(r) == "forbidden_branch");
  CHECK(edge.post(kBase + "/shifts/" + id + "/close", R"({"countedCashMinor":100})", mine).status == 200);

  // Another company sees none of it.
  CHECK(edge.get("/api/restaurant/companies/globex/shifts/" + id, edge.globex_token).status == 404);
  CHECK(edge.post("/api/restaurant/companies/globex/shifts", open_body(b, 1), edge.globex_token).status ==
        404);
}
