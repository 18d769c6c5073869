// Business dates at the edges, through the API (spec document 3, convention 4): the 02:30 example across a
// year and a month boundary, a cutoff of 0, a branch in another zone; orders, shifts and income agree.
// Instants are written in UTC; Istanbul is UTC+3 all year, Los Angeles UTC-8 in December.

#include <doctest/doctest.h>

#include "core/date.h"
#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

std::int64_t at(const std::string& utc) {
  auto ms = core::parse_timestamp(utc);
  REQUIRE(ms.ok());
  return *ms;
}

struct Fixture {
  TestEdge edge{unthrottled()};
  std::string moda, midnight, la, soup;
  int orders = 0;

  std::string create(const std::string& path, const std::string& body) {
    auto r = edge.post(kBase + path, body, edge.acme_token);
    INFO(path << " " << r.body);
    REQUIRE(r.status == 201);
    return str(r.data(), "id");
  }

  Fixture() {
    moda = create("/branches", R"({"name":"Moda"})");  // Europe/Istanbul, cutoff 4
    midnight = create("/branches", R"({"name":"Kadikoy","dayCutoffHour":0})");
    la = create("/branches", R"({"name":"Venice","timezone":"America/Los_Angeles"})");
    soup = create("/products", R"({"name":"Soup","priceMinor":100,"vatRateBps":1000})");
  }

  // The business date an order created now gets at `branch`, and its number.
  std::string order_day(const std::string& branch, std::int64_t* number = nullptr) {
    auto r = edge.post(kBase + "/orders",
                       R"({"branchId":")" + branch + R"(","clientOrderId":"k)" + std::to_string(++orders) +
                           R"(","items":[{"productId":")" + soup + R"(","quantity":1}]})",
                       edge.acme_token);
    INFO(r.body);
    REQUIRE(r.status == 201);
    if (number) *number = r.data().as_object().at("number").as_int64();
    return str(r.data(), "businessDate");
  }

  int income(const std::string& branch, const std::string& day) {
    return edge
        .post(kBase + "/income",
              R"({"branchId":")" + branch + R"(","businessDate":")" + day +
                  R"(","channel":"dine-in","grossMinor":100})",
              edge.acme_token)
        .status;
  }
};
}  // namespace

TEST_CASE("business date across the year boundary: 02:30 on 1 January is still 31 December") {
  Fixture f;
  // 2027-01-01 02:30 in Istanbul; 2026-12-31 15:30 in Los Angeles.
  f.edge.clock.set_ms(at("2026-12-31T23:30:00Z"));
  std::int64_t n = 0;
  CHECK(f.order_day(f.moda, &n) == "2026-12-31");
  CHECK(n == 1);
  CHECK(f.order_day(f.midnight) == "2027-01-01");  // cutoff 0: the calendar date
  CHECK(f.order_day(f.la) == "2026-12-31");
  // Income for the new year is in the future at Moda until 04:00, and fine at the cutoff-0 branch.
  auto refused = f.edge.post(
      kBase + "/income",
      R"({"branchId":")" + f.moda + R"(","businessDate":"2027-01-01","channel":"dine-in","grossMinor":100})",
      f.edge.acme_token);
  CHECK(refused.status == 422);
  CHECK(str(refused.json, "error") == "business_date_in_future");
  CHECK(f.income(f.midnight, "2027-01-01") == 201);
  CHECK(f.income(f.moda, "2026-12-31") == 201);
  // A shift opened now at Moda belongs to the old year too.
  auto shift = f.edge.post(kBase + "/shifts", R"({"branchId":")" + f.moda + R"(","openingFloatMinor":0})",
                           f.edge.acme_token);
  REQUIRE(shift.status == 201);
  CHECK(str(shift.data(), "businessDate") == "2026-12-31");

  // 04:00 in Istanbul: the new business year; order numbers start again at 1.
  f.edge.clock.set_ms(at("2027-01-01T01:00:00Z"));
  CHECK(f.order_day(f.moda, &n) == "2027-01-01");
  CHECK(n == 1);
  CHECK(f.income(f.moda, "2027-01-01") == 201);
  // One millisecond before 04:00 it was still the old day: the second order of 12-31 gets number 2.
  f.edge.clock.set_ms(at("2027-01-01T00:59:59.999Z"));
  CHECK(f.order_day(f.moda, &n) == "2026-12-31");
  CHECK(n == 2);
}

TEST_CASE("business date across a month boundary and at a cutoff of 0") {
  Fixture f;
  // 2026-12-01 01:59:59 in Istanbul: November at Moda, December at the cutoff-0 branch.
  f.edge.clock.set_ms(at("2026-11-30T22:59:59Z"));
  CHECK(f.order_day(f.moda) == "2026-11-30");
  CHECK(f.order_day(f.midnight) == "2026-12-01");
  // Exactly midnight with cutoff 0: the new day; one second before: the old one.
  f.edge.clock.set_ms(at("2026-11-30T21:00:00Z"));
  CHECK(f.order_day(f.midnight) == "2026-12-01");
  f.edge.clock.set_ms(at("2026-11-30T20:59:59Z"));
  CHECK(f.order_day(f.midnight) == "2026-11-30");
  // Los Angeles is 8 hours behind UTC: 2026-12-01T11:59:59Z is 03:59:59 there, still November.
  f.edge.clock.set_ms(at("2026-12-01T11:59:59Z"));
  CHECK(f.order_day(f.la) == "2026-11-30");
  f.edge.clock.set_ms(at("2026-12-01T12:00:00Z"));
  CHECK(f.order_day(f.la) == "2026-12-01");
  // The board defaults to the branch's current business day.
  auto board = f.edge.get(kBase + "/orders/board?branchId=" + f.la, f.edge.acme_token);
  REQUIRE(board.status == 200);
  REQUIRE(board.data().as_array().size() == 1);
  CHECK(str(board.data().as_array()[0], "businessDate") == "2026-12-01");
}
