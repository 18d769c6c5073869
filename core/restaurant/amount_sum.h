#pragma once
// Sums of minor-unit amounts that refuse to overflow. Restaurant totals add many validated amounts (order
// lines, report months); each is at most core::kMaxAmountMinor, but a sum is checked anyway so that stored
// data beyond the rules (or a very long order) yields `invalid_amount` instead of undefined behaviour.

#include <cstdint>
#include <string_view>

#include "core/money.h"
#include "core/result.h"

namespace core::restaurant {

// `total + amount`, or `invalid_amount` when the result leaves the range of accepted amounts
// (below -kMaxAmountMinor or above kMaxAmountMinor for per-order sums; reports add in the int64 range with
// ReportSum, core/restaurant/report.h).
inline Result<std::int64_t> add_amount(std::int64_t total, std::int64_t amount, std::string_view what) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(total, amount, &sum) || sum > kMaxAmountMinor || sum < -kMaxAmountMinor) {
    return make_error("invalid_amount", std::string(what) + " exceeds the largest accepted amount");
  }
  return sum;
}

}  // namespace core::restaurant
