#include "native/time/zone.h"

#include <chrono>
#include <exception>
#include <string>

#include <date/tz.h>

namespace native {
namespace {

// date::locate_zone throws std::runtime_error for an unknown name; this is the one place that turns it into
// an expected failure. A missing or unreadable tzdata also lands here, as every zone is then unknown.
const date::time_zone* find_zone(std::string_view iana_zone) {
  if (iana_zone.empty()) return nullptr;
  try {
    return date::locate_zone(iana_zone);
  } catch (const std::exception&) {
    return nullptr;
  }
}

core::Error unknown_zone() {
  return core::make_error("invalid_time_zone", "unknown IANA time zone");
}

}  // namespace

core::Status validate_time_zone(std::string_view iana_zone) {
  if (find_zone(iana_zone) == nullptr) return unknown_zone();
  return {};
}

core::Result<core::LocalDateTime> local_time(std::string_view iana_zone, std::int64_t unix_ms) {
  const date::time_zone* zone = find_zone(iana_zone);
  if (zone == nullptr) return unknown_zone();
  const date::sys_time<std::chrono::milliseconds> instant{std::chrono::milliseconds{unix_ms}};
  const auto info = zone->get_info(date::floor<std::chrono::seconds>(instant));
  // The local wall clock is the UTC wall clock shifted by the offset in force at that instant.
  const std::int64_t offset_ms = std::chrono::duration_cast<std::chrono::milliseconds>(info.offset).count();
  return core::civil_from_unix_ms(unix_ms + offset_ms);
}

}  // namespace native
