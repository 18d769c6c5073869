#include "native/time/zone.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "core/date.h"

namespace {

std::int64_t at(std::string_view timestamp) {
  auto t = core::parse_timestamp(timestamp);
  REQUIRE_MESSAGE(t.ok(), timestamp);
  return *t;
}

// The local wall-clock time as `YYYY-MM-DD HH:MM:SS`.
std::string local(std::string_view zone, std::string_view timestamp) {
  auto l = native::local_time(zone, at(timestamp));
  REQUIRE_MESSAGE(l.ok(), zone);
  char clock[16];
  std::snprintf(clock, sizeof clock, " %02d:%02d:%02d", l->hour, l->minute, l->second);
  return core::format_day_key(l->date) + clock;
}

}  // namespace

TEST_CASE("Europe/Istanbul is UTC+3 all year") {
  CHECK(local("Europe/Istanbul", "2026-01-15T12:00:00Z") == "2026-01-15 15:00:00");
  CHECK(local("Europe/Istanbul", "2026-07-15T12:00:00Z") == "2026-07-15 15:00:00");
  CHECK(local("Europe/Istanbul", "2026-12-31T21:00:00.000Z") == "2027-01-01 00:00:00");  // year boundary
  CHECK(local("UTC", "2026-07-15T12:00:00.999Z") == "2026-07-15 12:00:00");              // ms dropped
  CHECK(local("UTC", "1969-12-31T23:59:59.999Z") == "1969-12-31 23:59:59");
}

TEST_CASE("Europe/Berlin across both DST changes of 2026") {
  // Spring forward on Sunday 29 March at 01:00 UTC: 02:00 CET becomes 03:00 CEST.
  CHECK(local("Europe/Berlin", "2026-03-29T00:59:59Z") == "2026-03-29 01:59:59");
  CHECK(local("Europe/Berlin", "2026-03-29T01:00:00Z") == "2026-03-29 03:00:00");
  // Fall back on Sunday 25 October at 01:00 UTC: 03:00 CEST becomes 02:00 CET, so 02:xx happens twice.
  CHECK(local("Europe/Berlin", "2026-10-25T00:30:00Z") == "2026-10-25 02:30:00");
  CHECK(local("Europe/Berlin", "2026-10-25T01:30:00Z") == "2026-10-25 02:30:00");
  CHECK(local("Europe/Berlin", "2026-10-25T02:00:00Z") == "2026-10-25 03:00:00");
}

TEST_CASE("unknown zones are refused") {
  CHECK(native::validate_time_zone("Europe/Istanbul").ok());
  CHECK(native::validate_time_zone("Europe/Berlin").ok());
  CHECK(native::validate_time_zone("UTC").ok());
  CHECK(native::validate_time_zone("Mars/Olympus_Mons").error().code == "invalid_time_zone");
  CHECK(native::validate_time_zone("").error().code == "invalid_time_zone");
  CHECK(native::validate_time_zone("+03:00").error().code == "invalid_time_zone");
  CHECK(native::local_time("Mars/Olympus_Mons", 0).error().code == "invalid_time_zone");
}

TEST_CASE("a sale at 02:30 in Istanbul belongs to the previous business day (cutoff 4)") {
  // 2026-01-14T23:30Z is 02:30 on the 15th in Istanbul (UTC+3).
  auto l = native::local_time("Europe/Istanbul", at("2026-01-14T23:30:00.000Z"));
  REQUIRE(l.ok());
  CHECK(core::format_day_key(l->date) == "2026-01-15");
  CHECK(l->hour == 2);
  CHECK(l->minute == 30);
  CHECK(core::format_day_key(*core::business_date(*l, 4)) == "2026-01-14");
  CHECK(core::format_day_key(*core::business_date(*l, 0)) == "2026-01-15");  // cutoff 0: the calendar day
  // 01:00Z is 04:00 local: the cutoff hour itself already counts as the new day.
  auto four = native::local_time("Europe/Istanbul", at("2026-01-15T01:00:00Z"));
  CHECK(core::format_day_key(*core::business_date(*four, 4)) == "2026-01-15");
}
