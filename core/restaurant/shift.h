#pragma once
// Shift cash count (spec document 3, "Shift": close with counted cash and the difference to the expected
// cash). The till and the edge compute the same figures from the same inputs.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/money.h"
#include "core/result.h"

namespace core::restaurant {

// A payment taken while the shift was open.
struct ShiftPayment {
  std::string method;
  std::int64_t amountMinor = 0;
};

// Whether a payment method puts money in the cash drawer: `cash`, compared without regard to ASCII case
// and surrounding ASCII whitespace (the payment method is free text, spec document 3).
bool is_cash_method(std::string_view method);

struct ShiftCashCount {
  std::int64_t openingFloatMinor = 0;
  std::int64_t cashPaymentsMinor = 0;  // the cash payments' sum
  std::int64_t expectedCashMinor = 0;  // opening float + cash payments
  std::int64_t countedCashMinor = 0;
  // counted - expected: negative when the drawer is short, positive when it is over.
  std::int64_t differenceMinor = 0;

  friend bool operator==(const ShiftCashCount&, const ShiftCashCount&) = default;
};

// The cash the drawer should hold at closing and how far the count is from it. Card and other non-cash
// payments are left out.
// Errors: `invalid_amount` for an opening float, counted cash or payment amount outside 0..kMaxAmountMinor,
// or an expected sum above it.
Result<ShiftCashCount> count_shift_cash(std::int64_t opening_float_minor,
                                        std::span<const ShiftPayment> payments,
                                        std::int64_t counted_cash_minor);

}  // namespace core::restaurant
