#pragma once
// Money as integers in minor units (spec document 3: "every amount is an integer in minor units") and the
// VAT split of a VAT-inclusive gross (spec/DECISIONS.md). No floating point anywhere: a double cannot hold
// every cent of a large amount, and the browser till must compute exactly what the server stores.

#include <cstdint>
#include <string_view>

#include "core/result.h"

namespace core {

// The largest amount the core accepts, in minor units: 10^15 (ten trillion in a two-decimal currency).
// Amounts beyond it are refused as `invalid_amount`, so that sums of many amounts (order totals, monthly
// reports: up to about 9000 such amounts) and products with a VAT rate stay far from int64 overflow.
inline constexpr std::int64_t kMaxAmountMinor = 1'000'000'000'000'000;

// VAT rates are integer basis points: 2000 = 20 %, 150 = 1.5 %. 10000 (100 %) is the upper bound.
inline constexpr std::int64_t kMaxVatRateBps = 10'000;

// The rational numerator / denominator rounded to the nearest integer; an exact half rounds away from
// zero (so 0.5 -> 1, 2.5 -> 3, -0.5 -> -1, -2.5 -> -3). For non-negative values this is "round half up",
// the commercial rounding of spec/DECISIONS.md; for negative values it mirrors the positive result
// (round_half_up(-n, d) == -round_half_up(n, d)), so a refund rounds like the sale it reverses.
// Exact for every int64 numerator (no intermediate overflow).
// Errors: `invalid_argument` when denominator <= 0 (normalise the sign before calling).
Result<std::int64_t> round_half_up(std::int64_t numerator, std::int64_t denominator);

// A VAT-inclusive amount split into its net part and its VAT part; grossMinor == netMinor + vatMinor.
// Field names are the wire names of document 3.
struct VatSplit {
  std::int64_t grossMinor = 0;
  std::int64_t netMinor = 0;
  std::int64_t vatMinor = 0;

  friend bool operator==(const VatSplit&, const VatSplit&) = default;
};

// Ok when 0 <= bps <= 10000; otherwise `vat_rate_invalid`.
Status validate_vat_rate_bps(std::int64_t bps);

// Ok when 0 <= amount <= kMaxAmountMinor; otherwise `invalid_amount`. `field` names the amount in the message
// (for example "grossMinor").
Status validate_amount_minor(std::int64_t amount, std::string_view field = "amount");

// Splits a VAT-inclusive gross: vatMinor = round_half_up(grossMinor * bps / (10000 + bps)),
// netMinor = grossMinor - vatMinor. Computed exactly in integers for the whole accepted range.
// Errors: `vat_rate_invalid` when bps is outside 0..10000 (checked first); `invalid_amount` when grossMinor
// is negative or above kMaxAmountMinor.
Result<VatSplit> split_vat(std::int64_t gross_minor, std::int64_t bps);

}  // namespace core
