#include "core/money.h"

#include <string>

namespace core {

Result<std::int64_t> round_half_up(std::int64_t numerator, std::int64_t denominator) {
  if (denominator <= 0) return make_error("invalid_argument", "denominator must be positive");
  // C++ division truncates toward zero, so |remainder| < denominator and quotient carries the sign.
  std::int64_t quotient = numerator / denominator;
  std::int64_t remainder = numerator % denominator;
  std::int64_t magnitude = remainder < 0 ? -remainder : remainder;
  // magnitude / denominator >= 1/2, written without 2 * magnitude (which could overflow).
  if (magnitude >= denominator - magnitude) {
    // Only reachable when denominator >= 2, so |quotient| <= |numerator| / 2 and the step cannot overflow.
    quotient += numerator < 0 ? -1 : 1;
  }
  return quotient;
}

Status validate_vat_rate_bps(std::int64_t bps) {
  if (bps < 0 || bps > kMaxVatRateBps)
    return make_error("vat_rate_invalid",
                      "VAT rate must be an integer from 0 to 10000 basis points, got " + std::to_string(bps));
  return {};
}

Status validate_amount_minor(std::int64_t amount, std::string_view field) {
  if (amount < 0 || amount > kMaxAmountMinor)
    return make_error("invalid_amount",
                      std::string(field) +
                          " must be an integer from 0 to 1000000000000000 minor units, got " +
                          std::to_string(amount));
  return {};
}

Result<VatSplit> split_vat(std::int64_t gross_minor, std::int64_t bps) {
  CORE_TRY(validate_vat_rate_bps(bps));
  CORE_TRY(validate_amount_minor(gross_minor, "grossMinor"));
  // gross * bps can exceed int64 near the bound (10^15 * 10^4), so split gross = whole * d + rest:
  // gross * bps / d = whole * bps + rest * bps / d, where whole * bps is an integer (no rounding) and
  // rest * bps < d * bps <= 2 * 10^8. Both parts are non-negative, so rounding the second part alone
  // rounds the sum.
  const std::int64_t d = 10'000 + bps;
  const std::int64_t whole = gross_minor / d;
  const std::int64_t rest = gross_minor % d;
  auto fraction = round_half_up(rest * bps, d);
  if (!fraction) return fraction.error();
  const std::int64_t vat = whole * bps + *fraction;
  return VatSplit{gross_minor, gross_minor - vat, vat};
}

}  // namespace core
