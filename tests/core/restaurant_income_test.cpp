#include "core/restaurant/income.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "core/money.h"

using namespace core;
using namespace core::restaurant;

namespace {

CivilDate day(std::string_view key) {
  auto d = parse_day_key(key);
  REQUIRE_MESSAGE(d.ok(), key);
  return *d;
}

IncomeInput input(std::string_view date, std::string channel, std::int64_t gross, std::int64_t commission,
                  std::optional<std::int64_t> z = std::nullopt) {
  return IncomeInput{day(date), std::move(channel), gross, commission, z};
}

std::string code(const IncomeInput& in, std::string_view today = "2026-03-10") {
  auto r = validate_income(in, day(today));
  return r.ok() ? "ok" : r.error().code;
}

}  // namespace

TEST_CASE("an income row derives net and the difference to the Z report") {
  auto row = validate_income(input("2026-03-10", "  dine-in ", 10000, 1500, 9800), day("2026-03-10"));
  REQUIRE(row.ok());
  CHECK(row->channel == "dine-in");
  CHECK(row->netMinor == 8500);         // 10000 - 1500
  CHECK(row->zReportDiffMinor == 200);  // recorded 10000, the till counted 9800
  CHECK(format_day_key(row->businessDate) == "2026-03-10");

  auto no_z = validate_income(input("2026-02-28", "takeaway", 500, 500), day("2026-03-10"));
  REQUIRE(no_z.ok());
  CHECK(no_z->netMinor == 0);  // commission may equal gross
  CHECK_FALSE(no_z->zReportDiffMinor.has_value());

  auto short_till = validate_income(input("2026-03-01", "x", 100, 0, 130), day("2026-03-10"));
  CHECK(short_till->zReportDiffMinor == -30);
}

TEST_CASE("income validation codes") {
  CHECK(code(input("2026-03-11", "dine-in", 100, 0)) == "business_date_in_future");
  CHECK(code(input("2027-01-01", "dine-in", 100, 0), "2026-12-31") == "business_date_in_future");
  CHECK(code(input("2026-12-31", "dine-in", 100, 0), "2026-12-31") == "ok");
  CHECK(code(input("2026-03-10", " \t ", 100, 0)) == "invalid_field");
  CHECK(code(input("2026-03-10", "", 100, 0)) == "invalid_field");
  CHECK(code(input("2026-03-10", std::string(65, 'a'), 100, 0)) == "invalid_field");
  CHECK(code(input("2026-03-10", std::string(64, 'a'), 100, 0)) == "ok");
  std::string turkish;
  for (int i = 0; i < 64; ++i) turkish += "\xC5\x9F";  // 64 x 'ş': 128 bytes, 64 characters
  CHECK(code(input("2026-03-10", turkish, 100, 0)) == "ok");
  CHECK(code(input("2026-03-10", turkish + "a", 100, 0)) == "invalid_field");
  CHECK(code(input("2026-03-10", "dine-in", -1, 0)) == "invalid_amount");
  CHECK(code(input("2026-03-10", "dine-in", 100, -1)) == "invalid_amount");
  CHECK(code(input("2026-03-10", "dine-in", 100, 0, -1)) == "invalid_amount");
  CHECK(code(input("2026-03-10", "dine-in", kMaxAmountMinor + 1, 0)) == "invalid_amount");
  CHECK(code(input("2026-03-10", "delivery", 100, 101)) == "commission_exceeds_gross");
}

TEST_CASE("the future check follows the branch's cutoff-adjusted today") {
  // 00:30 local on 11 March: with cutoff 4 the business day is still the 10th; with cutoff 0 it is the 11th.
  LocalDateTime now{day("2026-03-11"), 0, 30, 0};
  auto with_cutoff = business_date(now, 4);
  auto midnight = business_date(now, 0);
  REQUIRE(with_cutoff.ok());
  REQUIRE(midnight.ok());
  CHECK(validate_income(input("2026-03-11", "dine-in", 100, 0), *with_cutoff).error().code ==
        "business_date_in_future");
  CHECK(validate_income(input("2026-03-11", "dine-in", 100, 0), *midnight).ok());
  // New Year's night: 01:00 on 1 January with cutoff 4 is business day 31 December.
  auto nye = business_date(LocalDateTime{day("2027-01-01"), 1, 0, 0}, 4);
  CHECK(validate_income(input("2027-01-01", "dine-in", 100, 0), *nye).error().code ==
        "business_date_in_future");
  CHECK(validate_income(input("2026-12-31", "dine-in", 100, 0), *nye).ok());
}
