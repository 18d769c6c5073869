#include "edge/http/http_date.h"

#include <array>

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
  // Formatted by hand: every file response carries one (Last-Modified), and snprintf costs more than the
  // rest of its head.
  core::LocalDateTime utc = core::civil_from_unix_ms(t * 1000);
  std::string out = "Sun, 00 Jan 0000 00:00:00 GMT";
  auto two = [&out](std::size_t at, unsigned v) {
    out[at] = static_cast<char>('0' + v / 10 % 10);
    out[at + 1] = static_cast<char>('0' + v % 10);
  };
  out.replace(0, 3, kDays[core::weekday(utc.date)]);
  two(5, utc.date.day);
  out.replace(8, 3, kMonths[utc.date.month - 1]);
  const auto year = static_cast<unsigned>(utc.date.year);
  two(12, year / 100);
  two(14, year % 100);
  two(17, static_cast<unsigned>(utc.hour));
  two(20, static_cast<unsigned>(utc.minute));
  two(23, static_cast<unsigned>(utc.second));
  return out;
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
