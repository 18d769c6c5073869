#include "core/restaurant/shift.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core::restaurant;

TEST_CASE("expected cash is the opening float plus the cash payments; the difference is counted - expected") {
  // Float 20000. Cash 4500 + 1250 = 5750; the card payment of 9900 stays out of the drawer.
  // Expected 20000 + 5750 = 25750; counted 25500 -> 250 short (-250).
  std::vector<ShiftPayment> payments{{"cash", 4500}, {"card", 9900}, {" Cash ", 1250}};
  auto count = count_shift_cash(20000, payments, 25500);
  REQUIRE(count.ok());
  CHECK(*count == ShiftCashCount{20000, 5750, 25750, 25500, -250});

  // Over by 100.
  CHECK(count_shift_cash(20000, payments, 25850)->differenceMinor == 100);
  // No payments: expected is the float.
  CHECK(*count_shift_cash(5000, {}, 5000) == ShiftCashCount{5000, 0, 5000, 5000, 0});
}

TEST_CASE("only `cash` in any case counts as cash") {
  CHECK(is_cash_method("cash"));
  CHECK(is_cash_method("CASH"));
  CHECK(is_cash_method("\tCash "));
  CHECK_FALSE(is_cash_method("card"));
  CHECK_FALSE(is_cash_method("cashback"));
  CHECK_FALSE(is_cash_method(""));
}

TEST_CASE("amounts outside 0..kMaxAmountMinor are invalid_amount") {
  CHECK(count_shift_cash(-1, {}, 0).error().code == "invalid_amount");
  CHECK(count_shift_cash(0, {}, -5).error().code == "invalid_amount");
  std::vector<ShiftPayment> negative{{"cash", -10}};
  CHECK(count_shift_cash(0, negative, 0).error().code == "invalid_amount");
  // A non-cash payment is not looked at, whatever its amount.
  std::vector<ShiftPayment> card{{"card", -10}};
  CHECK(count_shift_cash(0, card, 0).ok());
  std::vector<ShiftPayment> huge{{"cash", core::kMaxAmountMinor}};
  CHECK(count_shift_cash(1, huge, 0).error().code == "invalid_amount");
}
