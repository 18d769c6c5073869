// Closing a shift counts the cash the till took through order payments: cash payments of the shift's branch
// from the open to the close, not card payments, not payments before the open, not other branches'.

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

std::string order(TestEdge& edge, const std::string& branch, const std::string& product, int quantity,
                  const std::string& key) {
  return create(edge, "/orders",
                R"({"branchId":")" + branch + R"(","clientOrderId":")" + key +
                    R"(","items":[{"productId":")" + product + R"(","quantity":)" + std::to_string(quantity) +
                    "}]}");
}

void pay(TestEdge& edge, const std::string& order_id, const std::string& payment_id, int amount,
         const std::string& method) {
  create(edge, "/orders/" + order_id + "/payments",
         R"({"paymentId":")" + payment_id + R"(","amountMinor":)" + std::to_string(amount) +
             R"(,"method":")" + method + R"("})");
}
}  // namespace

TEST_CASE("restaurant shift close: expected cash = opening float + the shift's cash payments") {
  TestEdge edge(unthrottled());
  std::string moda = create(edge, "/branches", R"({"name":"Moda"})");
  std::string other = create(edge, "/branches", R"({"name":"Other"})");
  std::string soup = create(edge, "/products", R"({"name":"Soup","priceMinor":5000,"vatRateBps":1000})");

  // Before the shift opens: order A (2 x 5000) gets 3000 in cash. Not the shift's.
  std::string a = order(edge, moda, soup, 2, "a");
  pay(edge, a, "a-1", 3000, "cash");

  edge.clock.advance_ms(60'000);
  std::string shift = create(edge, "/shifts", R"({"branchId":")" + moda + R"(","openingFloatMinor":10000})");

  // During the shift: A gets 4000 cash and 3000 card (its 10000 are now paid); B (1 x 5000) is paid 5000 in
  // "CASH"; the other branch takes 7000 cash, which is its drawer's.
  edge.clock.advance_ms(60'000);
  pay(edge, a, "a-2", 4000, "cash");
  pay(edge, a, "a-3", 3000, "card");
  std::string b = order(edge, moda, soup, 1, "b");
  pay(edge, b, "b-1", 5000, "CASH");
  std::string c = order(edge, other, soup, 2, "c");
  pay(edge, c, "c-1", 7000, "cash");

  // Cash 4000 + 5000 = 9000; expected 10000 + 9000 = 19000; counted 18800: 200 short.
  edge.clock.advance_ms(60'000);
  auto closed =
      edge.post(kBase + "/shifts/" + shift + "/close", R"({"countedCashMinor":18800})", edge.acme_token);
  INFO(closed.body);
  REQUIRE(closed.status == 200);
  const auto& s = closed.data().as_object();
  CHECK(s.at("cashPaymentsMinor").as_int64() == 9000);
  CHECK(s.at("expectedCashMinor").as_int64() == 19000);
  CHECK(s.at("countedCashMinor").as_int64() == 18800);
  CHECK(s.at("differenceMinor").as_int64() == -200);

  // A payment after the close belongs to no closed shift: the closed figures stay.
  edge.clock.advance_ms(60'000);
  std::string d = order(edge, moda, soup, 1, "d");
  pay(edge, d, "d-1", 5000, "cash");
  CHECK(edge.get(kBase + "/shifts/" + shift, edge.acme_token).data().as_object() == s);

  // The next shift counts only what comes after its own open: d-1 was before it.
  edge.clock.advance_ms(60'000);
  std::string next = create(edge, "/shifts", R"({"branchId":")" + moda + R"(","openingFloatMinor":0})");
  auto empty = edge.post(kBase + "/shifts/" + next + "/close", R"({"countedCashMinor":0})", edge.acme_token);
  REQUIRE(empty.status == 200);
  CHECK(empty.data().as_object().at("expectedCashMinor").as_int64() == 0);
  CHECK(empty.data().as_object().at("differenceMinor").as_int64() == 0);
}
