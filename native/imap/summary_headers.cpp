#include "native/imap/summary_headers.h"

#include "native/mail/gmime_support.h"

#include <gmime/gmime.h>

#include <array>
#include <charconv>
#include <chrono>
#include <memory>
#include <mutex>

namespace native::imap {
namespace {

// GMime's own owners and its one-time initialization are shared with the outbound mail adapters.
using OwnedText = mail::gmime::CString;
using AddressList = mail::gmime::Ref<InternetAddressList>;
using Date = mail::gmime::DateTime;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] + 32) : b[i];
    if (x != y) return false;
  }
  return true;
}

// The unfolded value of the first field named `name` (RFC 5322 §2.2.3: a line break followed by whitespace
// is removed, the whitespace kept), or nullopt when absent. NUL bytes are dropped: GMime takes C strings.
std::optional<std::string> field(std::string_view block, std::string_view name) {
  std::optional<std::string> value;
  bool in_field = false;
  while (!block.empty()) {
    auto newline = block.find('\n');
    std::string_view line = block.substr(0, newline);
    block.remove_prefix(newline == std::string_view::npos ? block.size() : newline + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    bool continuation = !line.empty() && (line.front() == ' ' || line.front() == '\t');
    if (continuation) {
      if (in_field) value->append(line);
      continue;
    }
    if (in_field) return value;  // the first occurrence is complete
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view field_name = line.substr(0, colon);
    while (!field_name.empty() && is_space(field_name.back())) field_name.remove_suffix(1);
    if (iequals(field_name, name)) {
      in_field = true;
      value = std::string(line.substr(colon + 1));
    }
  }
  if (value) std::erase(*value, '\0');
  return value;
}

std::string decode_text(const std::string& raw) {
  OwnedText decoded(g_mime_utils_header_decode_text(nullptr, raw.c_str()));
  return trim(decoded ? std::string_view(decoded.get()) : std::string_view(raw));
}

std::string decode_addresses(const std::string& raw) {
  AddressList list(internet_address_list_parse(nullptr, raw.c_str()));
  if (list == nullptr || internet_address_list_length(list.get()) == 0) return decode_text(raw);
  OwnedText text(internet_address_list_to_string(list.get(), nullptr, FALSE));
  return text ? trim(text.get()) : decode_text(raw);
}

std::optional<std::time_t> decode_date(const std::string& raw) {
  Date date(g_mime_utils_header_decode_date(raw.c_str()));
  if (date == nullptr) return std::nullopt;
  return static_cast<std::time_t>(g_date_time_to_unix(date.get()));
}

template <class T>
bool read_number(std::string_view& text, std::size_t digits, T& out) {
  if (text.size() < digits) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + digits, out);
  if (ec != std::errc() || end != text.data() + digits) return false;
  text.remove_prefix(digits);
  return true;
}

bool expect(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

std::optional<std::time_t> parse_internal_date(std::string_view text) {
  static constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  unsigned day = 0, hour = 0, minute = 0, second = 0, zone_h = 0, zone_m = 0;
  int year = 0;
  std::size_t day_digits = text.size() > 1 && text[1] == '-' ? 1 : 2;
  if (!read_number(text, day_digits, day) || !expect(text, '-') || text.size() < 3) return std::nullopt;
  unsigned month = 0;
  while (month < 12 && !iequals(kMonths[month], text.substr(0, 3))) ++month;
  if (month == 12) return std::nullopt;
  text.remove_prefix(3);
  if (!expect(text, '-') || !read_number(text, 4, year) || !expect(text, ' ') ||
      !read_number(text, 2, hour) || !expect(text, ':') || !read_number(text, 2, minute) ||
      !expect(text, ':') || !read_number(text, 2, second) || !expect(text, ' ') || text.empty())
    return std::nullopt;
  char sign = text.front();
  text.remove_prefix(1);
  if ((sign != '+' && sign != '-') || !read_number(text, 2, zone_h) || !read_number(text, 2, zone_m) ||
      !text.empty())
    return std::nullopt;
  using namespace std::chrono;
  year_month_day date{std::chrono::year{year}, std::chrono::month{month + 1}, std::chrono::day{day}};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60 || zone_m > 59) return std::nullopt;
  auto local = sys_days(date) + hours(hour) + minutes(minute) + seconds(second);
  auto offset = hours(zone_h) + minutes(zone_m);
  auto utc = sign == '+' ? local - offset : local + offset;
  return static_cast<std::time_t>(utc.time_since_epoch().count());
}

std::string iso_utc(std::time_t seconds) {
  std::tm parts{};
  if (gmtime_r(&seconds, &parts) == nullptr) return {};
  char out[32];
  std::size_t n = std::strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return std::string(out, n);
}

SummaryHeaders decode_summary_headers(std::string_view header_block,
                                      std::optional<std::time_t> fallback_time) {
  mail::gmime::ensure_initialized();
  SummaryHeaders out;
  if (auto from = field(header_block, "From")) out.from = decode_addresses(*from);
  if (auto to = field(header_block, "To")) out.to = decode_addresses(*to);
  if (auto subject = field(header_block, "Subject")) out.subject = decode_text(*subject);
  std::optional<std::time_t> when;
  if (auto date = field(header_block, "Date")) when = decode_date(*date);
  if (!when) when = fallback_time;
  if (when) out.date_iso = iso_utc(*when);
  return out;
}

}  // namespace native::imap
