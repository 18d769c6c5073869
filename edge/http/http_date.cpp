#include "edge/http/http_date.h"

#include <array>
#include <cstdio>

#include "core/date.h"

namespace edge {
namespace {

constexpr std::array<const char*, 7> kDays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

int digits(std::string_view s) {
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::string http_date(std::int64_t t) {
  core::LocalDateTime utc = core::civil_from_unix_ms(t * 1000);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s, %02u %s %04d %02d:%02d:%02d GMT", kDays[core::weekday(utc.date)],
                utc.date.day, kMonths[utc.date.month - 1], utc.date.year, utc.hour, utc.minute, utc.second);
  return buf;
}

std::optional<std::int64_t> parse_http_date(std::string_view s) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": fixed positions.
  if (s.size() != 29 || s.substr(3, 2) != ", " || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
      s[19] != ':' || s[22] != ':' || s.substr(25) != " GMT")
    return std::nullopt;
  core::LocalDateTime t;
  int day = digits(s.substr(5, 2));
  t.date.year = digits(s.substr(12, 4));
  t.hour = digits(s.substr(17, 2));
  t.minute = digits(s.substr(20, 2));
  t.second = digits(s.substr(23, 2));
  t.date.month = 0;
  for (unsigned i = 0; i < kMonths.size(); ++i)
    if (s.substr(8, 3) == kMonths[i]) t.date.month = i + 1;
  if (day < 1 || t.date.year < 0 || t.hour < 0 || t.hour > 23 || t.minute < 0 || t.minute > 59 ||
      t.second < 0 || t.second > 59)
    return std::nullopt;
  t.date.day = static_cast<unsigned>(day);
  if (t.date.month == 0 || !core::is_valid_date(t.date)) return std::nullopt;
  return core::unix_ms_from_civil(t) / 1000;
}

}  // namespace edge
