#pragma once
// Civil calendar arithmetic without a clock: day keys (`YYYY-MM-DD`), business dates (spec document 3) and
// ISO 8601 UTC timestamps with milliseconds (spec/DECISIONS.md). The proleptic Gregorian calendar
// throughout; days count from 1970-01-01 (day 0), instants are Unix milliseconds (leap seconds ignored,
// as POSIX and JavaScript do). Time zones are not handled here: the native layer turns an instant into a
// branch's local wall-clock time with the tz database, the browser with Intl, and both hand the result in.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core {

// A calendar date. Valid when month is 1..12 and day is 1..days_in_month(year, month).
struct CivilDate {
  int year = 1970;
  unsigned month = 1;
  unsigned day = 1;

  // Chronological order (year, then month, then day).
  friend auto operator<=>(const CivilDate&, const CivilDate&) = default;
};

// A wall-clock time on a date, in whatever zone the caller says (a branch's local time, or UTC).
// Valid when the date is valid, hour 0..23, minute 0..59, second 0..59.
struct LocalDateTime {
  CivilDate date;
  int hour = 0;
  int minute = 0;
  int second = 0;

  friend bool operator==(const LocalDateTime&, const LocalDateTime&) = default;
};

bool is_leap_year(int year);
// 28..31. Precondition: month 1..12.
unsigned days_in_month(int year, unsigned month);
bool is_valid_date(const CivilDate& date);

// Days since 1970-01-01 (negative before it). Precondition: month 1..12 (an out-of-range day is counted
// on linearly, so day 0 is the last day of the previous month). Exact for every int year.
std::int64_t days_from_civil(const CivilDate& date);
// The date `days` after 1970-01-01. Precondition: the resulting year fits in int (|days| below about
// 7.8 * 10^11, which covers every int64 Unix millisecond).
CivilDate civil_from_days(std::int64_t days);

// `days` later (earlier when negative). Precondition: a valid date whose result's year fits in int.
CivilDate add_days(const CivilDate& date, int days);
// The whole days from `from` to `to` (negative when `to` is earlier).
std::int64_t days_between(const CivilDate& from, const CivilDate& to);

// Day of the week, 0 = Sunday ... 6 = Saturday (as C's tm_wday and JavaScript's getUTCDay).
unsigned weekday(const CivilDate& date);
// ISO 8601 day of the week, 1 = Monday ... 7 = Sunday (weeks start on Monday).
unsigned iso_weekday(const CivilDate& date);

// Parses a day key: exactly `YYYY-MM-DD`, four-digit year 0000..9999, two-digit month and day, a real
// calendar day (2026-02-29 is refused, 2028-02-29 accepted). No surrounding whitespace, no other forms.
// Errors: `invalid_date` with a message quoting the input.
Result<CivilDate> parse_day_key(std::string_view text);
// `YYYY-MM-DD`. Precondition: a valid date with year 0..9999.
std::string format_day_key(const CivilDate& date);

// The restaurant business date of a local wall-clock time: a time before `day_cutoff_hour` belongs to the
// previous calendar day (cutoff 4: 02:30 on the 15th is business day 14th; 04:00 is the 15th). Cutoff 0
// makes the business date the calendar date.
// Errors: `invalid_cutoff_hour` unless 0 <= day_cutoff_hour <= 23; `invalid_date` / `invalid_time` when
// `local` is not a valid date or time.
inline constexpr int kDefaultDayCutoffHour = 4;
Result<CivilDate> business_date(const LocalDateTime& local, int day_cutoff_hour);

// The UTC wall-clock time of an instant, milliseconds dropped (rounded toward the past, so -1 ms is
// 1969-12-31T23:59:59).
LocalDateTime civil_from_unix_ms(std::int64_t unix_ms);
// The instant of a UTC wall-clock time (whole seconds). Precondition: a valid LocalDateTime whose instant
// fits in int64 milliseconds.
std::int64_t unix_ms_from_civil(const LocalDateTime& utc);

// ISO 8601 in UTC with milliseconds: `2026-11-22T13:16:56.000Z`. Years outside 0000..9999 use the
// expanded six-digit signed form JavaScript's toISOString uses (`+275760-09-13T00:00:00.000Z`,
// `-000001-12-31T...`), so every int64 formats.
std::string format_timestamp(std::int64_t unix_ms);

// Parses an RFC 3339 timestamp into Unix milliseconds:
//   YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
// The zone is required (a time without a zone names no instant). The fraction has 1 to 9 digits;
// digits beyond milliseconds are truncated, as JavaScript's Date.parse does. `T` and `Z` are upper case.
// Leap seconds (`:60`) and `24:00` are refused; offsets go up to ±23:59.
// Errors: `invalid_timestamp` with a message quoting the input.
Result<std::int64_t> parse_timestamp(std::string_view text);

}  // namespace core
