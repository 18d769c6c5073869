#include "core/restaurant/order.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core;
using namespace core::restaurant;

namespace {

OrderLine line(std::string id, std::int64_t unit, std::int64_t qty, std::int64_t bps) {
  return OrderLine{std::move(id), "prd_" + std::to_string(unit), "Item", unit, qty, bps};
}

OrderBalance balance_of(const std::vector<OrderLine>& lines, const std::vector<Payment>& payments) {
  auto b = order_balance(lines, payments);
  REQUIRE(b.ok());
  return *b;
}

}  // namespace

TEST_CASE("order VAT is the sum of per-line VAT, not the VAT of the total") {
  // A: 1000 x 1 at 20 %: vat = round(1000 * 2000 / 12000) = round(166.67) = 167, net 833.
  // B: the same line again: 167 / 833.
  // C: 1050 x 2 = 2100 at 10 %: vat = round(2100 * 1000 / 11000) = round(190.91) = 191, net 1909.
  std::vector<OrderLine> lines{line("l1", 1000, 1, 2000), line("l2", 1000, 1, 2000),
                               line("l3", 1050, 2, 1000)};
  auto totals = order_totals(lines);
  REQUIRE(totals.ok());
  CHECK(totals->grossMinor == 4100);
  CHECK(totals->vatMinor == 525);  // 167 + 167 + 191
  CHECK(totals->netMinor == 3575);
  REQUIRE(totals->lines.size() == 3);
  CHECK(totals->lines[0] == LineTotals{"l1", VatSplit{1000, 833, 167}});
  CHECK(totals->lines[2] == LineTotals{"l3", VatSplit{2100, 1909, 191}});

  // The two 20 % lines alone: 334 VAT per line, while VAT of the 2000 total is round(333.33) = 333.
  std::vector<OrderLine> twenty{line("l1", 1000, 1, 2000), line("l2", 1000, 1, 2000)};
  CHECK(order_totals(twenty)->vatMinor == 334);
  CHECK(split_vat(2000, 2000)->vatMinor == 333);
}

TEST_CASE("a line's gross is unit price times quantity, split once") {
  // 7 x 3 = 21 at 20 %: 21 * 2000 / 12000 = 3.5 -> 4 (half up). Per unit it would be 3 x round(1.17) = 3.
  CHECK(*line_totals(line("l", 7, 3, 2000)) == VatSplit{21, 17, 4});
  CHECK(*line_totals(line("l", 500, 1, 0)) == VatSplit{500, 500, 0});
  CHECK(*line_totals(line("l", 0, 2, 800)) == VatSplit{0, 0, 0});
}

TEST_CASE("an empty order totals zero and can close") {
  auto b = balance_of({}, {});
  CHECK(b.totals.grossMinor == 0);
  CHECK(b.dueMinor == 0);
  CHECK(check_can_close(b).ok());
}

TEST_CASE("invalid lines are refused with their codes") {
  CHECK(validate_order_line(line("l", 100, 0, 2000)).error().code == "invalid_quantity");
  CHECK(validate_order_line(line("l", 100, -1, 2000)).error().code == "invalid_quantity");
  CHECK(validate_order_line(line("l", 100, 100'001, 2000)).error().code == "invalid_quantity");
  CHECK(validate_order_line(line("l", 100, 100'000, 2000)).ok());
  CHECK(validate_order_line(line("l", 100, 1, 10'001)).error().code == "vat_rate_invalid");
  CHECK(validate_order_line(line("l", 100, 1, -1)).error().code == "vat_rate_invalid");
  CHECK(validate_order_line(line("l", -1, 1, 2000)).error().code == "invalid_amount");
  CHECK(validate_order_line(line("l", kMaxAmountMinor, 1, 2000)).ok());
  CHECK(validate_order_line(line("l", kMaxAmountMinor, 2, 2000)).error().code == "invalid_amount");
  CHECK(line_totals(line("l", 100, 0, 2000)).error().code == "invalid_quantity");
  std::vector<OrderLine> bad{line("l1", 100, 1, 2000), line("l2", 100, 0, 2000)};
  CHECK(order_totals(bad).error().code == "invalid_quantity");
  std::vector<OrderLine> huge{line("l1", kMaxAmountMinor, 1, 0), line("l2", 1, 1, 0)};
  CHECK(order_totals(huge).error().code == "invalid_amount");
}

TEST_CASE("payments reduce the due; one above the due is refused; the order closes when covered") {
  std::vector<OrderLine> lines{line("l1", 1000, 1, 2000), line("l2", 1000, 1, 2000),
                               line("l3", 1050, 2, 1000)};
  auto open = balance_of(lines, {});
  CHECK(open.dueMinor == 4100);
  CHECK(check_can_close(open).error().code == "order_not_paid");

  CHECK(validate_new_payment(open, Payment{"pay_1", 1500, "card"}).ok());
  auto part = balance_of(lines, {Payment{"pay_1", 1500, "card"}});
  CHECK(part.paidMinor == 1500);
  CHECK(part.dueMinor == 2600);  // 4100 - 1500
  CHECK(check_can_close(part).error().code == "order_not_paid");
  CHECK(validate_new_payment(part, Payment{"pay_2", 2601, "cash"}).error().code == "payment_exceeds_due");
  CHECK(validate_new_payment(part, Payment{"pay_2", 2600, "cash"}).ok());

  auto paid = balance_of(lines, {Payment{"pay_1", 1500, "card"}, Payment{"pay_2", 2600, "cash"}});
  CHECK(paid.paidMinor == 4100);
  CHECK(paid.dueMinor == 0);
  CHECK(paid.overpaidMinor == 0);
  CHECK(check_can_close(paid).ok());
  CHECK(validate_new_payment(paid, Payment{"pay_3", 1, "cash"}).error().code == "payment_exceeds_due");
}

TEST_CASE("payment amounts must be whole positive minor units") {
  auto open = balance_of({line("l1", 1000, 1, 2000)}, {});
  CHECK(validate_new_payment(open, Payment{"p", 0, "card"}).error().code == "invalid_amount");
  CHECK(validate_new_payment(open, Payment{"p", -5, "card"}).error().code == "invalid_amount");
  CHECK(validate_new_payment(open, Payment{"p", kMaxAmountMinor + 1, "card"}).error().code ==
        "invalid_amount");
  CHECK(order_balance(std::vector<OrderLine>{}, std::vector<Payment>{Payment{"p", 0, "x"}}).error().code ==
        "invalid_amount");
}

TEST_CASE("removing a line after a payment leaves the order overpaid but closable") {
  // Paid 1500 for two lines; the 1000 line was removed: total 500, overpaid 1000.
  auto b = balance_of({line("l2", 500, 1, 800)}, {Payment{"p", 1500, "cash"}});
  CHECK(b.dueMinor == 0);
  CHECK(b.overpaidMinor == 1000);
  CHECK(check_can_close(b).ok());
}

TEST_CASE("only an open order takes writes; a line edit must name the current version") {
  CHECK(check_order_open("open").ok());
  CHECK(check_order_open("closed").error().code == "order_not_open");
  CHECK(check_order_open("").error().code == "order_not_open");
  CHECK(check_order_version(3, 3).ok());
  auto stale = check_order_version(3, 2);
  CHECK(stale.error().code == "invalid_version");
  CHECK(stale.error().message == "the order is at version 3, the request was made against version 2");
  CHECK(check_order_version(3, 4).error().code == "invalid_version");
}
