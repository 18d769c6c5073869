#include "core/money.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

using namespace core;

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

std::int64_t rounded(std::int64_t n, std::int64_t d) {
  auto r = round_half_up(n, d);
  REQUIRE(r.ok());
  return *r;
}

VatSplit split(std::int64_t gross, std::int64_t bps) {
  auto r = split_vat(gross, bps);
  REQUIRE(r.ok());
  return *r;
}

}  // namespace

TEST_CASE("round_half_up rounds to nearest, exact halves away from zero") {
  CHECK(rounded(0, 5) == 0);
  CHECK(rounded(7, 3) == 2);    // 2.33
  CHECK(rounded(8, 3) == 3);    // 2.67
  CHECK(rounded(1, 2) == 1);    // 0.5 -> 1
  CHECK(rounded(5, 2) == 3);    // 2.5 -> 3 (not banker's 2)
  CHECK(rounded(4, 2) == 2);    // exact
  CHECK(rounded(1, 3) == 0);    // 0.33
  CHECK(rounded(-7, 3) == -2);  // -2.33
  CHECK(rounded(-8, 3) == -3);  // -2.67
  CHECK(rounded(-1, 2) == -1);  // -0.5 -> -1: mirrors the positive case
  CHECK(rounded(-5, 2) == -3);  // -2.5 -> -3
  CHECK(rounded(-1, 3) == 0);
}

TEST_CASE("round_half_up is exact at the ends of int64") {
  CHECK(rounded(kInt64Max, 1) == kInt64Max);
  CHECK(rounded(kInt64Min, 1) == kInt64Min);
  CHECK(rounded(kInt64Max, 2) == 4611686018427387904);       // ...903.5 -> ...904
  CHECK(rounded(kInt64Min, 2) == -4611686018427387904);      // exact
  CHECK(rounded(kInt64Min + 1, 2) == -4611686018427387904);  // ...903.5 -> ...904 away from zero
  CHECK(rounded(kInt64Max, kInt64Max) == 1);
  CHECK(rounded(1, kInt64Max) == 0);
  // 2^62 / (2^63 - 1) is just above one half; 2^62 - 1 over the same is just below.
  CHECK(rounded(4611686018427387904, kInt64Max) == 1);
  CHECK(rounded(4611686018427387903, kInt64Max) == 0);
}

TEST_CASE("round_half_up refuses a denominator that is not positive") {
  CHECK(round_half_up(1, 0).error().code == "invalid_argument");
  CHECK(round_half_up(1, -2).error().code == "invalid_argument");
}

TEST_CASE("split_vat: the worked examples") {
  // 118 * 1800 / 11800 = 18 exactly.
  CHECK(split(118, 1800) == VatSplit{118, 100, 18});
  // 100 * 2000 / 12000 = 16.67 -> 17.
  CHECK(split(100, 2000) == VatSplit{100, 83, 17});
  // 1 * 2000 / 12000 = 0.17 -> 0: a single minor unit carries no VAT at 20 %.
  CHECK(split(1, 2000) == VatSplit{1, 1, 0});
  // 3 * 2000 / 12000 = 0.5 exactly -> rounds up to 1.
  CHECK(split(3, 2000) == VatSplit{3, 2, 1});
  // 12345 * 800 / 10800 = 914.44 -> 914.
  CHECK(split(12345, 800) == VatSplit{12345, 11431, 914});
  // 1.5 %: 10150 * 150 / 10150 = 150 exactly; 1000 * 150 / 10150 = 14.78 -> 15.
  CHECK(split(10150, 150) == VatSplit{10150, 10000, 150});
  CHECK(split(1000, 150) == VatSplit{1000, 985, 15});
}

TEST_CASE("split_vat at the ends of the rate range") {
  // 0 bps: no VAT at all.
  CHECK(split(12345, 0) == VatSplit{12345, 12345, 0});
  // 10000 bps (100 %): VAT is half the gross, halves rounding up.
  CHECK(split(100, 10000) == VatSplit{100, 50, 50});
  CHECK(split(101, 10000) == VatSplit{101, 50, 51});  // 50.5 -> 51
  CHECK(split(1, 10000) == VatSplit{1, 0, 1});        // 0.5 -> 1
  // 1 bps.
  CHECK(split(10001, 1) == VatSplit{10001, 10000, 1});
  CHECK(split(0, 2000) == VatSplit{0, 0, 0});
}

TEST_CASE("split_vat refuses invalid rates and amounts") {
  CHECK(split_vat(100, -1).error().code == "vat_rate_invalid");
  CHECK(split_vat(100, 10001).error().code == "vat_rate_invalid");
  CHECK(split_vat(100, kInt64Max).error().code == "vat_rate_invalid");
  CHECK(split_vat(-1, 2000).error().code == "invalid_amount");
  CHECK(split_vat(kMaxAmountMinor + 1, 2000).error().code == "invalid_amount");
  CHECK(split_vat(kInt64Max, 2000).error().code == "invalid_amount");
  CHECK(split_vat(kInt64Min, 2000).error().code == "invalid_amount");
  // The rate is checked first, so a request with both wrong reports the rate.
  CHECK(split_vat(-1, -1).error().code == "vat_rate_invalid");
  CHECK(split_vat(-5, 2000).error().message ==
        "grossMinor must be an integer from 0 to 1000000000000000 minor units, got -5");
}

TEST_CASE("split_vat is exact near the amount bound, where gross * bps exceeds int64") {
  // 10^15 * 2000 = 2 * 10^18 still fits, but 10^15 * 10000 = 10^19 does not.
  // 10^15 / 6 = 166666666666666.67 -> ...667.
  CHECK(split(kMaxAmountMinor, 2000) == VatSplit{kMaxAmountMinor, 833333333333333, 166666666666667});
  // 999999999999999 = 6 * 166666666666666 + 3, so VAT = ...666.5 exactly -> ...667.
  CHECK(split(999999999999999, 2000) == VatSplit{999999999999999, 833333333333332, 166666666666667});
  // 10^15 * 10000 / 20000 = 5 * 10^14 exactly.
  CHECK(split(kMaxAmountMinor, 10000) == VatSplit{kMaxAmountMinor, 500000000000000, 500000000000000});
  // 10^15 * 1800 / 11800 = 10^15 * 9 / 59 = 152542372881355.93 -> ...356.
  CHECK(split(kMaxAmountMinor, 1800) == VatSplit{kMaxAmountMinor, 847457627118644, 152542372881356});
  // 10^15 * 150 / 10150 = 14778325123152.71 -> ...153.
  CHECK(split(kMaxAmountMinor, 150) == VatSplit{kMaxAmountMinor, 985221674876847, 14778325123153});
}

TEST_CASE("split_vat agrees with the direct formula wherever the direct formula cannot overflow") {
  // For n >= 0, round-half-up(n / d) == floor((2n + d) / 2d): an independent statement of the rule.
  for (std::int64_t bps : {0, 1, 150, 800, 1000, 1800, 2000, 9999, 10000}) {
    const std::int64_t d = 10000 + bps;
    for (std::int64_t gross = 0; gross <= 30000; ++gross) {
      const std::int64_t expected_vat = (2 * gross * bps + d) / (2 * d);
      auto s = split_vat(gross, bps);
      if (!s.ok()) FAIL("gross " << gross << " bps " << bps << " refused: " << s.error().message);
      if (s->vatMinor != expected_vat || s->netMinor != gross - expected_vat) {
        FAIL("gross " << gross << " bps " << bps << " gave vat " << s->vatMinor << ", expected "
                      << expected_vat);
      }
    }
  }
}

TEST_CASE("validate helpers") {
  CHECK(validate_vat_rate_bps(0).ok());
  CHECK(validate_vat_rate_bps(10000).ok());
  CHECK(validate_vat_rate_bps(10001).error().code == "vat_rate_invalid");
  CHECK(validate_amount_minor(0).ok());
  CHECK(validate_amount_minor(kMaxAmountMinor).ok());
  CHECK(validate_amount_minor(kMaxAmountMinor + 1).error().code == "invalid_amount");
  CHECK(validate_amount_minor(-1, "amountMinor").error().message ==
        "amountMinor must be an integer from 0 to 1000000000000000 minor units, got -1");
}
