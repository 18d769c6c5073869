#pragma once
// Branch time zones: an instant turned into a branch's local wall-clock time with the IANA tz database of the
// operating system (Debian's tzdata through Howard Hinnant's date/tz). The core's business_date then takes
// that local time; the browser till does the same conversion with Intl.

#include <cstdint>
#include <string_view>

#include "core/date.h"
#include "core/result.h"

namespace native {

// Ok when `iana_zone` names a zone (or link) of the system tz database, such as `Europe/Istanbul` or `UTC`.
// Errors: `invalid_time_zone` otherwise (also for an empty name).
core::Status validate_time_zone(std::string_view iana_zone);

// The wall-clock time in `iana_zone` at the instant `unix_ms` (milliseconds dropped toward the past, as
// core::civil_from_unix_ms). Thread-safe: the database is loaded once and read-only after that.
// Errors: `invalid_time_zone` for an unknown zone.
core::Result<core::LocalDateTime> local_time(std::string_view iana_zone, std::int64_t unix_ms);

}  // namespace native
