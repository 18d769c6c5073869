#include "core/restaurant/shift.h"

#include "core/ascii.h"
#include "core/money.h"
#include "core/restaurant/amount_sum.h"

namespace core::restaurant {

bool is_cash_method(std::string_view method) {
  return ascii_iequals(trim_ascii_space(method), "cash");
}

Result<ShiftCashCount> count_shift_cash(std::int64_t opening_float_minor,
                                        std::span<const ShiftPayment> payments,
                                        std::int64_t counted_cash_minor) {
  CORE_TRY(validate_amount_minor(opening_float_minor, "openingFloatMinor"));
  CORE_TRY(validate_amount_minor(counted_cash_minor, "countedCashMinor"));
  ShiftCashCount out;
  out.openingFloatMinor = opening_float_minor;
  out.countedCashMinor = counted_cash_minor;
  for (const auto& p : payments) {
    if (!is_cash_method(p.method)) continue;
    CORE_TRY(validate_amount_minor(p.amountMinor, "payment amount"));
    auto sum = add_amount(out.cashPaymentsMinor, p.amountMinor, "cash payments");
    if (!sum) return sum.error();
    out.cashPaymentsMinor = *sum;
  }
  auto expected = add_amount(opening_float_minor, out.cashPaymentsMinor, "expected cash");
  if (!expected) return expected.error();
  out.expectedCashMinor = *expected;
  out.differenceMinor = counted_cash_minor - out.expectedCashMinor;
  return out;
}

}  // namespace core::restaurant
