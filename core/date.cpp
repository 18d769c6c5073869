#include "core/date.h"

#include "core/ascii.h"

namespace core {
namespace {

constexpr std::int64_t kMsPerDay = 86'400'000;

// Reads exactly `count` ASCII digits at `pos`; false if any is not a digit or the text is too short.
bool read_digits(std::string_view text, std::size_t pos, std::size_t count, int& out) {
  if (pos + count > text.size()) return false;
  int value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    char c = text[i];
    if (!is_ascii_digit(c)) return false;
    value = value * 10 + (c - '0');
  }
  out = value;
  return true;
}

bool valid_time(int hour, int minute, int second) {
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

void append_padded(std::string& out, std::int64_t value, std::size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) out.append(width - digits.size(), '0');
  out += digits;
}

Error invalid_date(std::string_view text) {
  return make_error("invalid_date", quote_for_message(text) + " is not a valid date (expected YYYY-MM-DD)");
}

Error invalid_timestamp(std::string_view text) {
  return make_error("invalid_timestamp", quote_for_message(text) +
                                             " is not a valid timestamp (expected ISO 8601 such as "
                                             "2026-11-22T13:16:56.000Z)");
}

}  // namespace

bool is_leap_year(int year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

unsigned days_in_month(int year, unsigned month) {
  static constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && is_leap_year(year)) return 29;
  return kDays[month - 1];
}

bool is_valid_date(const CivilDate& date) {
  return date.month >= 1 && date.month <= 12 && date.day >= 1 &&
         date.day <= days_in_month(date.year, date.month);
}

// Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms": days_from_civil. The year is shifted to
// start in March so the leap day is the last day of the year; eras are 400-year cycles of 146097 days.
std::int64_t days_from_civil(const CivilDate& date) {
  const std::int64_t m = date.month;
  const std::int64_t y = static_cast<std::int64_t>(date.year) - (m <= 2 ? 1 : 0);
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;  // [0, 399]
  const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + static_cast<std::int64_t>(date.day) - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;  // [0, 146096] for a valid date
  return era * 146097 + doe - 719468;
}

// Hinnant's civil_from_days, the inverse of the above.
CivilDate civil_from_days(std::int64_t days) {
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;                                       // [0, 146096]
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // [0, 365]
  const std::int64_t mp = (5 * doy + 2) / 153;                                     // [0, 11], 0 = March
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;                           // [1, 31]
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;                            // [1, 12]
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return CivilDate{static_cast<int>(year), static_cast<unsigned>(month), static_cast<unsigned>(day)};
}

CivilDate add_days(const CivilDate& date, int days) {
  return civil_from_days(days_from_civil(date) + days);
}

std::int64_t days_between(const CivilDate& from, const CivilDate& to) {
  return days_from_civil(to) - days_from_civil(from);
}

unsigned weekday(const CivilDate& date) {
  // 1970-01-01 was a Thursday (4). Keep the remainder non-negative for days before it.
  const std::int64_t days = days_from_civil(date);
  const std::int64_t r = (days + 4) % 7;
  return static_cast<unsigned>(r < 0 ? r + 7 : r);
}

unsigned iso_weekday(const CivilDate& date) {
  const unsigned w = weekday(date);
  return w == 0 ? 7 : w;
}

Result<CivilDate> parse_day_key(std::string_view text) {
  int year = 0, month = 0, day = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !read_digits(text, 0, 4, year) ||
      !read_digits(text, 5, 2, month) || !read_digits(text, 8, 2, day))
    return invalid_date(text);
  CivilDate date{year, static_cast<unsigned>(month), static_cast<unsigned>(day)};
  if (!is_valid_date(date)) return invalid_date(text);
  return date;
}

std::string format_day_key(const CivilDate& date) {
  std::string out;
  out.reserve(10);
  append_padded(out, date.year, 4);
  out += '-';
  append_padded(out, date.month, 2);
  out += '-';
  append_padded(out, date.day, 2);
  return out;
}

Result<CivilDate> business_date(const LocalDateTime& local, int day_cutoff_hour) {
  if (day_cutoff_hour < 0 || day_cutoff_hour > 23)
    return make_error("invalid_cutoff_hour",
                      "dayCutoffHour must be from 0 to 23, got " + std::to_string(day_cutoff_hour));
  if (!is_valid_date(local.date))
    return make_error("invalid_date", "the local date is not a valid calendar date");
  if (!valid_time(local.hour, local.minute, local.second))
    return make_error("invalid_time", "the local time is not a valid time of day");
  if (local.hour < day_cutoff_hour) return add_days(local.date, -1);
  return local.date;
}

LocalDateTime civil_from_unix_ms(std::int64_t unix_ms) {
  // Floor division: the remainder must be the time since midnight even before 1970.
  std::int64_t days = unix_ms / kMsPerDay;
  std::int64_t ms_of_day = unix_ms % kMsPerDay;
  if (ms_of_day < 0) {
    days -= 1;
    ms_of_day += kMsPerDay;
  }
  const int seconds = static_cast<int>(ms_of_day / 1000);
  return LocalDateTime{civil_from_days(days), seconds / 3600, seconds / 60 % 60, seconds % 60};
}

std::int64_t unix_ms_from_civil(const LocalDateTime& utc) {
  const std::int64_t seconds_of_day = utc.hour * 3600 + utc.minute * 60 + utc.second;
  return days_from_civil(utc.date) * kMsPerDay + seconds_of_day * 1000;
}

std::string format_timestamp(std::int64_t unix_ms) {
  const LocalDateTime t = civil_from_unix_ms(unix_ms);
  std::int64_t ms = unix_ms % 1000;
  if (ms < 0) ms += 1000;
  std::string out;
  out.reserve(24);
  if (t.date.year >= 0 && t.date.year <= 9999) {
    append_padded(out, t.date.year, 4);
  } else {
    out += t.date.year < 0 ? '-' : '+';
    append_padded(out, t.date.year < 0 ? -static_cast<std::int64_t>(t.date.year) : t.date.year, 6);
  }
  out += '-';
  append_padded(out, t.date.month, 2);
  out += '-';
  append_padded(out, t.date.day, 2);
  out += 'T';
  append_padded(out, t.hour, 2);
  out += ':';
  append_padded(out, t.minute, 2);
  out += ':';
  append_padded(out, t.second, 2);
  out += '.';
  append_padded(out, ms, 3);
  out += 'Z';
  return out;
}

Result<std::int64_t> parse_timestamp(std::string_view text) {
  // Fixed part: YYYY-MM-DDTHH:MM:SS (19 characters).
  if (text.size() < 20 || text[10] != 'T' || text[13] != ':' || text[16] != ':')
    return invalid_timestamp(text);
  auto date = parse_day_key(text.substr(0, 10));
  if (!date) return invalid_timestamp(text);
  int hour = 0, minute = 0, second = 0;
  if (!read_digits(text, 11, 2, hour) || !read_digits(text, 14, 2, minute) ||
      !read_digits(text, 17, 2, second) || !valid_time(hour, minute, second))
    return invalid_timestamp(text);

  std::size_t pos = 19;
  std::int64_t millis = 0;
  if (text[pos] == '.') {
    ++pos;
    std::size_t digits = 0;
    while (pos < text.size() && is_ascii_digit(text[pos])) {
      if (digits < 3) millis = millis * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return invalid_timestamp(text);
    for (std::size_t i = digits; i < 3; ++i) millis *= 10;
  }

  std::int64_t offset_minutes = 0;
  if (pos < text.size() && text[pos] == 'Z') {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const bool negative = text[pos] == '-';
    int offset_hour = 0, offset_minute = 0;
    if (pos + 6 > text.size() || !read_digits(text, pos + 1, 2, offset_hour) || text[pos + 3] != ':' ||
        !read_digits(text, pos + 4, 2, offset_minute) || offset_hour > 23 || offset_minute > 59)
      return invalid_timestamp(text);
    offset_minutes = offset_hour * 60 + offset_minute;
    if (negative) offset_minutes = -offset_minutes;
    pos += 6;
  } else {
    return invalid_timestamp(text);
  }
  if (pos != text.size()) return invalid_timestamp(text);

  // Local time = UTC + offset, so UTC = local - offset.
  return unix_ms_from_civil(LocalDateTime{*date, hour, minute, second}) + millis - offset_minutes * 60'000;
}

}  // namespace core
