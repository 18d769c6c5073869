#include "core/restaurant/shift.h"

#include "core/money.h"
#include "core/restaurant/amount_sum.h"

namespace core::restaurant {

bool is_cash_method(std::string_view method) {
  auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!method.empty() && space(method.front())) method.remove_prefix(1);
  while (!method.empty() && space(method.back())) method.remove_suffix(1);
  if (method.size() != 4) return false;
  constexpr std::string_view kCash = "cash";
  for (std::size_t i = 0; i < 4; ++i) {
    char c = method[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kCash[i]) return false;
  }
  return true;
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
