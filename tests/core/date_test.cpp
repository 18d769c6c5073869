#include "core/date.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

using namespace core;

namespace {

CivilDate day(std::string_view key) {
  auto d = parse_day_key(key);
  REQUIRE_MESSAGE(d.ok(), key);
  return *d;
}

std::string business_day(std::string_view key, int hour, int minute, int cutoff) {
  auto d = business_date(LocalDateTime{day(key), hour, minute, 0}, cutoff);
  REQUIRE(d.ok());
  return format_day_key(*d);
}

std::int64_t parsed(std::string_view text) {
  auto t = parse_timestamp(text);
  REQUIRE_MESSAGE(t.ok(), text);
  return *t;
}

}  // namespace

TEST_CASE("leap years and month lengths") {
  CHECK(is_leap_year(2024));
  CHECK(is_leap_year(2000));        // divisible by 400
  CHECK_FALSE(is_leap_year(1900));  // divisible by 100 only
  CHECK_FALSE(is_leap_year(2026));
  CHECK(is_leap_year(0));
  CHECK(days_in_month(2026, 2) == 28);
  CHECK(days_in_month(2028, 2) == 29);
  CHECK(days_in_month(2026, 4) == 30);
  CHECK(days_in_month(2026, 12) == 31);
  CHECK(is_valid_date({2028, 2, 29}));
  CHECK_FALSE(is_valid_date({2026, 2, 29}));
  CHECK_FALSE(is_valid_date({2026, 0, 1}));
  CHECK_FALSE(is_valid_date({2026, 13, 1}));
  CHECK_FALSE(is_valid_date({2026, 4, 31}));
  CHECK_FALSE(is_valid_date({2026, 1, 0}));
}

TEST_CASE("days_from_civil and civil_from_days against known day numbers") {
  // Day numbers checked with JavaScript: Date.UTC(y, m - 1, d) / 86400000.
  CHECK(days_from_civil({1970, 1, 1}) == 0);
  CHECK(days_from_civil({2000, 1, 1}) == 10957);
  CHECK(days_from_civil({2026, 3, 15}) == 20527);
  CHECK(days_from_civil({2024, 2, 29}) == 19782);
  CHECK(days_from_civil({1900, 3, 1}) == -25508);
  CHECK(days_from_civil({0, 1, 1}) == -719528);
  CHECK(days_from_civil({9999, 12, 31}) == 2932896);
  CHECK(civil_from_days(0) == CivilDate{1970, 1, 1});
  CHECK(civil_from_days(-1) == CivilDate{1969, 12, 31});
  CHECK(civil_from_days(19782) == CivilDate{2024, 2, 29});
  CHECK(civil_from_days(-719528) == CivilDate{0, 1, 1});
  CHECK(civil_from_days(-719529) == CivilDate{-1, 12, 31});
  // Day 0 of a month counts as the last day of the previous one.
  CHECK(days_from_civil({2026, 3, 0}) == days_from_civil({2026, 2, 28}));
}

TEST_CASE("civil_from_days inverts days_from_civil day by day across 800 years") {
  // Walks 1700-01-01 .. 2500-01-01 and checks each step advances the calendar by exactly one day.
  CivilDate expected{1700, 1, 1};
  const std::int64_t first = days_from_civil(expected);
  const std::int64_t last = days_from_civil({2500, 1, 1});
  int failures = 0;
  for (std::int64_t n = first; n <= last; ++n) {
    const CivilDate got = civil_from_days(n);
    if (!(got == expected) || days_from_civil(got) != n) ++failures;
    if (expected.day < days_in_month(expected.year, expected.month)) {
      ++expected.day;
    } else if (expected.month < 12) {
      ++expected.month;
      expected.day = 1;
    } else {
      expected = CivilDate{expected.year + 1, 1, 1};
    }
  }
  CHECK(failures == 0);
  CHECK(last - first == 292194);  // 800 years = 2 * 146097 days
}

TEST_CASE("add_days, days_between and ordering") {
  CHECK(add_days({2026, 2, 28}, 1) == CivilDate{2026, 3, 1});
  CHECK(add_days({2028, 2, 28}, 1) == CivilDate{2028, 2, 29});
  CHECK(add_days({2026, 12, 31}, 1) == CivilDate{2027, 1, 1});
  CHECK(add_days({2026, 1, 1}, -1) == CivilDate{2025, 12, 31});
  CHECK(add_days({2026, 3, 15}, 0) == CivilDate{2026, 3, 15});
  CHECK(add_days({2026, 1, 1}, 365) == CivilDate{2027, 1, 1});
  CHECK(add_days({2028, 1, 1}, 365) == CivilDate{2028, 12, 31});
  CHECK(days_between({2026, 1, 1}, {2026, 3, 1}) == 59);
  CHECK(days_between({2026, 3, 1}, {2026, 1, 1}) == -59);
  CHECK(CivilDate{2026, 1, 31} < CivilDate{2026, 2, 1});
  CHECK(CivilDate{2025, 12, 31} < CivilDate{2026, 1, 1});
  CHECK(CivilDate{2026, 2, 1} > CivilDate{2026, 1, 31});
}

TEST_CASE("weekday") {
  CHECK(weekday({1970, 1, 1}) == 4);   // Thursday
  CHECK(weekday({2026, 3, 15}) == 0);  // Sunday
  CHECK(weekday({2000, 1, 1}) == 6);   // Saturday
  CHECK(weekday({1900, 3, 1}) == 4);   // before 1970: still 0..6
  CHECK(weekday({1969, 12, 28}) == 0);
  CHECK(iso_weekday({2026, 3, 15}) == 7);
  CHECK(iso_weekday({2026, 3, 16}) == 1);  // Monday
  CHECK(iso_weekday({1970, 1, 1}) == 4);
}

TEST_CASE("parse_day_key accepts exactly YYYY-MM-DD of a real day") {
  CHECK(day("2026-03-15") == CivilDate{2026, 3, 15});
  CHECK(day("2028-02-29") == CivilDate{2028, 2, 29});
  CHECK(day("2000-02-29") == CivilDate{2000, 2, 29});
  CHECK(day("0000-01-01") == CivilDate{0, 1, 1});
  CHECK(day("9999-12-31") == CivilDate{9999, 12, 31});
  for (std::string_view bad :
       {"2026-02-29",           "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31",  "2026-01-00",
        "2026-01-32",           "2026-1-01",  "2026-01-1",  "26-01-01",   "2026-01-01 ", " 2026-01-01",
        "2026-01-01T00:00:00Z", "2026/01/01", "20260101",   "",           "2026-0a-01",  "+202-01-01",
        "2026-+1-01",           "-001-01-01"}) {
    auto d = parse_day_key(bad);
    CHECK_MESSAGE(!d.ok(), bad);
    if (!d.ok()) CHECK(d.error().code == "invalid_date");
  }
  CHECK(parse_day_key("2026-02-29").error().message ==
        "'2026-02-29' is not a valid date (expected YYYY-MM-DD)");
}

TEST_CASE("format_day_key pads every field") {
  CHECK(format_day_key({2026, 3, 5}) == "2026-03-05");
  CHECK(format_day_key({999, 12, 31}) == "0999-12-31");
  CHECK(format_day_key({0, 1, 1}) == "0000-01-01");
  CHECK(format_day_key(day("2028-02-29")) == "2028-02-29");
}

TEST_CASE("business_date: before the cutoff hour belongs to the previous day") {
  // Spec document 3: cutoff 4, a sale at 02:30 belongs to the previous business day.
  CHECK(business_day("2026-03-15", 2, 30, 4) == "2026-03-14");
  CHECK(business_day("2026-03-15", 4, 0, 4) == "2026-03-15");   // the cutoff hour itself is the new day
  CHECK(business_day("2026-03-15", 3, 59, 4) == "2026-03-14");  // one minute before
  CHECK(business_day("2026-03-15", 23, 59, 4) == "2026-03-15");
  CHECK(business_day("2026-03-15", 0, 0, 4) == "2026-03-14");
  // Cutoff 0: the calendar day.
  CHECK(business_day("2026-03-15", 0, 0, 0) == "2026-03-15");
  CHECK(business_day("2026-03-15", 2, 30, 0) == "2026-03-15");
  // Cutoff 23: only the last hour is the same day.
  CHECK(business_day("2026-03-15", 22, 59, 23) == "2026-03-14");
  CHECK(business_day("2026-03-15", 23, 0, 23) == "2026-03-15");
  // Month, leap-day and year boundaries.
  CHECK(business_day("2026-03-01", 1, 0, 4) == "2026-02-28");
  CHECK(business_day("2028-03-01", 1, 0, 4) == "2028-02-29");
  CHECK(business_day("2026-05-01", 3, 0, 4) == "2026-04-30");
  CHECK(business_day("2026-01-01", 3, 59, 4) == "2025-12-31");
  CHECK(kDefaultDayCutoffHour == 4);
}

TEST_CASE("business_date refuses an invalid cutoff or local time") {
  const LocalDateTime t{{2026, 3, 15}, 2, 30, 0};
  CHECK(business_date(t, -1).error().code == "invalid_cutoff_hour");
  CHECK(business_date(t, 24).error().code == "invalid_cutoff_hour");
  CHECK(business_date(t, 24).error().message == "dayCutoffHour must be from 0 to 23, got 24");
  CHECK(business_date({{2026, 2, 29}, 2, 30, 0}, 4).error().code == "invalid_date");
  CHECK(business_date({{2026, 3, 15}, 24, 0, 0}, 4).error().code == "invalid_time");
  CHECK(business_date({{2026, 3, 15}, -1, 0, 0}, 4).error().code == "invalid_time");
  CHECK(business_date({{2026, 3, 15}, 5, 60, 0}, 4).error().code == "invalid_time");
  CHECK(business_date({{2026, 3, 15}, 5, 0, 60}, 4).error().code == "invalid_time");
}

TEST_CASE("format_timestamp: known instants") {
  // Checked with `date -u -d @<seconds>` and JavaScript's toISOString.
  CHECK(format_timestamp(0) == "1970-01-01T00:00:00.000Z");
  CHECK(format_timestamp(1763817416000) == "2025-11-22T13:16:56.000Z");
  CHECK(format_timestamp(1795353416000) == "2026-11-22T13:16:56.000Z");
  CHECK(format_timestamp(1795353416007) == "2026-11-22T13:16:56.007Z");
  CHECK(format_timestamp(951782400000) == "2000-02-29T00:00:00.000Z");
  CHECK(format_timestamp(-1) == "1969-12-31T23:59:59.999Z");
  CHECK(format_timestamp(-1000) == "1969-12-31T23:59:59.000Z");
  CHECK(format_timestamp(-1001) == "1969-12-31T23:59:58.999Z");
  CHECK(format_timestamp(253402300799999) == "9999-12-31T23:59:59.999Z");
  CHECK(format_timestamp(-62167219200000) == "0000-01-01T00:00:00.000Z");
  // Outside 0000..9999: JavaScript's expanded years.
  CHECK(format_timestamp(253402300800000) == "+010000-01-01T00:00:00.000Z");
  CHECK(format_timestamp(-62167219200001) == "-000001-12-31T23:59:59.999Z");
  CHECK(format_timestamp(8640000000000000) == "+275760-09-13T00:00:00.000Z");
  CHECK(format_timestamp(-8640000000000000) == "-271821-04-20T00:00:00.000Z");
  // The int64 ends (as Java's Instant.ofEpochMilli prints them).
  CHECK(format_timestamp(std::numeric_limits<std::int64_t>::max()) == "+292278994-08-17T07:12:55.807Z");
  CHECK(format_timestamp(std::numeric_limits<std::int64_t>::min()) == "-292275055-05-16T16:47:04.192Z");
}

TEST_CASE("civil_from_unix_ms and unix_ms_from_civil") {
  CHECK(civil_from_unix_ms(1763817416999) == LocalDateTime{{2025, 11, 22}, 13, 16, 56});
  CHECK(civil_from_unix_ms(-1) == LocalDateTime{{1969, 12, 31}, 23, 59, 59});
  CHECK(unix_ms_from_civil({{2025, 11, 22}, 13, 16, 56}) == 1763817416000);
  CHECK(unix_ms_from_civil({{1969, 12, 31}, 23, 59, 59}) == -1000);
}

TEST_CASE("parse_timestamp: accepted forms") {
  CHECK(parsed("2026-11-22T13:16:56.000Z") == 1795353416000);
  CHECK(parsed("2026-11-22T13:16:56Z") == 1795353416000);
  CHECK(parsed("2026-11-22T16:16:56+03:00") == 1795353416000);
  CHECK(parsed("2026-11-22T16:16:56.000+03:00") == 1795353416000);
  CHECK(parsed("2026-11-22T10:16:56-03:00") == 1795353416000);
  CHECK(parsed("2026-11-22T13:16:56-00:00") == 1795353416000);
  CHECK(parsed("2026-03-15T02:30:00.5-01:30") == 1773547200500);  // one fraction digit = 500 ms
  CHECK(parsed("2026-03-15T00:00:00.12Z") == 1773532800120);
  CHECK(parsed("2026-03-15T00:00:00.123456789Z") == 1773532800123);  // truncated, not rounded
  CHECK(parsed("2026-03-15T00:00:00.999999Z") == 1773532800999);
  CHECK(parsed("2000-02-29T23:59:59.999+00:00") == 951868799999);
  CHECK(parsed("1969-12-31T23:59:59.999Z") == -1);
  CHECK(parsed("0000-01-01T00:00:00.000Z") == -62167219200000);
  CHECK(parsed("9999-12-31T23:59:59.999-23:59") == 253402387139999);
  CHECK(parsed("2026-01-01T00:30:00+01:00") == parsed("2025-12-31T23:30:00Z"));  // offset crosses a year
}

TEST_CASE("parse_timestamp: refused forms") {
  for (std::string_view bad : {
           "",
           "2026-11-22",               // a day key is not an instant
           "2026-11-22T13:16:56",      // no zone
           "2026-11-22T13:16:56.000",  // no zone
           "2026-11-22 13:16:56Z",     // space separator
           "2026-11-22t13:16:56z",     // lower case
           "2026-11-22T13:16Z",        // no seconds
           "2026-11-22T13:16:60Z",     // leap second
           "2026-11-22T24:00:00Z",     // 24:00
           "2026-11-22T13:60:00Z",
           "2026-02-29T00:00:00Z",             // not a day
           "2026-11-22T13:16:56.Z",            // empty fraction
           "2026-11-22T13:16:56.1234567890Z",  // ten fraction digits
           "2026-11-22T13:16:56,000Z",         // comma fraction
           "2026-11-22T13:16:56+0300",         // offset without colon
           "2026-11-22T13:16:56+03",           // offset without minutes
           "2026-11-22T13:16:56+24:00",        // offset too large
           "2026-11-22T13:16:56+03:60",
           "2026-11-22T13:16:56Z ",  // trailing space
           "2026-11-22T13:16:56ZZ",
           "2026-11-22T13:16:56.000Z+03:00",
           "2026-11-22T1:16:56Z",
           "+02026-11-22T13:16:56Z",
           "2026-11-22T13:16:56.00aZ",
       }) {
    auto t = parse_timestamp(bad);
    CHECK_MESSAGE(!t.ok(), bad);
    if (!t.ok()) CHECK(t.error().code == "invalid_timestamp");
  }
}

TEST_CASE("format_timestamp and parse_timestamp round-trip") {
  for (std::int64_t ms : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1}, std::int64_t{1763817416123},
                          std::int64_t{951868799999}, std::int64_t{-62167219200000},
                          std::int64_t{253402300799999}, std::int64_t{4102444800000}}) {
    CHECK(parsed(format_timestamp(ms)) == ms);
  }
  // A spread of instants, 1 ms apart at the start and then in growing steps.
  int failures = 0;
  for (std::int64_t ms = -62167219200000; ms < 253402300799999;
       ms = ms + 1 + (ms < 0 ? -ms : ms) / 997 + 7919) {
    auto back = parse_timestamp(format_timestamp(ms));
    if (!back.ok() || *back != ms) ++failures;
  }
  CHECK(failures == 0);
}
