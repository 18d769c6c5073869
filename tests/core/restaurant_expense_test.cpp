#include "core/restaurant/expense.h"

#include <doctest/doctest.h>

#include <string>

#include "core/money.h"

using namespace core;
using namespace core::restaurant;

namespace {

ExpenseInput base() {
  ExpenseInput in;
  in.grossMinor = 11800;  // 100.00 net + 18 % VAT
  in.vatRateBps = 1800;
  in.accrualDate = "2026-01-31";
  return in;
}

std::string code(const ExpenseInput& in) {
  auto r = validate_expense(in);
  return r.ok() ? "ok" : r.error().code;
}

}  // namespace

TEST_CASE("deductible VAT leaves the net as the cost; non-deductible VAT stays in the cost") {
  // 11800 at 18 %: vat = 11800 * 1800 / 11800 = 1800 exactly, net 10000.
  CHECK(*expense_amounts(11800, 1800, true) == ExpenseAmounts{11800, 10000, 1800, 10000});
  CHECK(*expense_amounts(11800, 1800, false) == ExpenseAmounts{11800, 10000, 1800, 11800});
  // 999 at 8 %: 999 * 800 / 10800 = 74 exactly; 1000 at 8 %: 74.07 -> 74, net 926.
  CHECK(*expense_amounts(1000, 800, true) == ExpenseAmounts{1000, 926, 74, 926});
  CHECK(*expense_amounts(0, 2000, false) == ExpenseAmounts{0, 0, 0, 0});
  CHECK(expense_amounts(100, 10'001, true).error().code == "vat_rate_invalid");
  CHECK(expense_amounts(-1, 2000, true).error().code == "invalid_amount");
  CHECK(expense_amounts(-1, -1, true).error().code == "vat_rate_invalid");  // rate first
}

TEST_CASE("a minimal expense is unpaid, has no payable and pays by cash") {
  auto r = validate_expense(base());
  REQUIRE(r.ok());
  CHECK(format_day_key(r->accrualDate) == "2026-01-31");
  CHECK_FALSE(r->dueDate.has_value());
  CHECK_FALSE(r->paidAtUnixMs.has_value());
  CHECK(r->paymentMethod == "cash");
  CHECK(r->amounts.costMinor == 10000);
  CHECK_FALSE(r->is_payable());
}

TEST_CASE("due date and paid timestamp") {
  ExpenseInput in = base();
  in.dueDate = "2026-02-15";
  in.paymentMethod = " card ";
  auto unpaid = validate_expense(in);
  REQUIRE(unpaid.ok());
  CHECK(unpaid->is_payable());
  CHECK(unpaid->paymentMethod == "card");
  in.paidAt = "2026-02-10T09:30:00.000Z";
  auto paid = validate_expense(in);
  REQUIRE(paid.ok());
  CHECK(*paid->paidAtUnixMs == *parse_timestamp("2026-02-10T12:30:00+03:00"));
  CHECK_FALSE(paid->is_payable());
  // Paid before the accrual date (a prepayment) is accepted.
  in.paidAt = "2025-12-20T00:00:00Z";
  CHECK(code(in) == "ok");
}

TEST_CASE("a payable is an expense with a due date that is not paid") {
  CHECK(is_payable(true, false));
  CHECK_FALSE(is_payable(true, true));
  CHECK_FALSE(is_payable(false, false));
  CHECK_FALSE(is_payable(false, true));
}

TEST_CASE("expense validation codes") {
  ExpenseInput in = base();
  in.vatRateBps = 2001 * 5;
  CHECK(code(in) == "vat_rate_invalid");
  in = base();
  in.grossMinor = kMaxAmountMinor + 1;
  CHECK(code(in) == "invalid_amount");
  in = base();
  in.accrualDate = "2026-02-29";  // 2026 is not a leap year
  CHECK(code(in) == "invalid_date");
  CHECK(validate_expense(in).error().message.rfind("accrualDate: ", 0) == 0);
  in.accrualDate = "2028-02-29";
  CHECK(code(in) == "ok");
  in.dueDate = "2026-13-01";
  CHECK(code(in) == "invalid_date");
  CHECK(validate_expense(in).error().message.rfind("dueDate: ", 0) == 0);
  in = base();
  in.paidAt = "2026-02-10";  // a day key is not a timestamp
  CHECK(code(in) == "invalid_timestamp");
  in.paidAt = "2026-02-10T09:30:00";  // no zone
  CHECK(code(in) == "invalid_timestamp");
  in = base();
  in.paymentMethod = "   ";
  CHECK(code(in) == "invalid_field");
  in.paymentMethod = std::string(65, 'm');
  CHECK(code(in) == "invalid_field");
}

TEST_CASE("an expense is paid once, in full") {
  using core::restaurant::check_expense_payment;
  CHECK(check_expense_payment("", 11800, 11800).ok());
  auto partial = check_expense_payment("", 11800, 5000);
  CHECK(partial.error().code == "amount_mismatch");
  CHECK(partial.error().message.find("11800") != std::string::npos);
  // Already paid wins over the amount: the second payment is refused whatever it says.
  auto again = check_expense_payment("2026-11-17T12:30:00.000Z", 11800, 11800);
  CHECK(again.error().code == "already_paid");
  CHECK(again.error().message.find("2026-11-17T12:30:00.000Z") != std::string::npos);
  CHECK(check_expense_payment("2026-11-17T12:30:00.000Z", 11800, 1).error().code == "already_paid");
}
