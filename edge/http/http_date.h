#pragma once
// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate form `Sun, 06 Nov 1994 08:49:37 GMT`, used by Date,
// Last-Modified and If-Modified-Since.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace edge {

// Formats seconds since the Unix epoch as an IMF-fixdate.
std::string http_date(std::int64_t unix_seconds);
// Parses an IMF-fixdate; nullopt for anything else (the obsolete RFC 850 and asctime forms are not
// accepted: a conditional header we cannot read is ignored, which is always safe).
std::optional<std::int64_t> parse_http_date(std::string_view text);

}  // namespace edge
