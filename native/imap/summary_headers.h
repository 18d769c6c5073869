#pragma once
// The header fields an inbox listing shows, decoded for display: RFC 2047 encoded-words in Subject and in
// address display names become UTF-8, the Date becomes ISO 8601 in UTC. GMime does the decoding
// (`pkg-config gmime-3.0`); see docs/mailboxes.md, "Listing".

#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace native::imap {

struct SummaryHeaders {
  std::string from;      // "Name <address>, ..." with names decoded; empty when the field is absent
  std::string to;        // same
  std::string subject;   // decoded, unfolded, surrounding whitespace trimmed
  std::string date_iso;  // "2025-11-24T09:00:00Z"; from Date, else the fallback; empty when neither parses
};

// Decodes the From, To, Subject and Date fields of `header_block` (raw header lines as a server returns
// them for BODY[HEADER.FIELDS (...)], CRLF or LF, possibly folded). The first occurrence of each field
// counts. `fallback_time` (seconds since the epoch, for example the arrival time) stands in for a missing
// or unparsable Date. Undecodable bytes never fail: text that is not valid UTF-8 after decoding is
// converted as GMime's fallback charsets allow. Thread-safe.
SummaryHeaders decode_summary_headers(std::string_view header_block,
                                      std::optional<std::time_t> fallback_time);

// IMAP INTERNALDATE (`24-Nov-2025 09:00:00 +0100`, day possibly space-padded) as seconds since the epoch;
// nullopt when malformed.
std::optional<std::time_t> parse_internal_date(std::string_view text);

// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
std::string iso_utc(std::time_t seconds);

}  // namespace native::imap
