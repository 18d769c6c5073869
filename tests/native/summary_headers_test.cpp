// Decoding the header fields of an inbox listing (native/imap/summary_headers.h) with GMime: RFC 2047
// encoded-words, folded lines, dates to UTC, and the arrival time when Date is missing or broken.

#include <doctest/doctest.h>

#include <string>

#include "native/imap/summary_headers.h"

using native::imap::decode_summary_headers;
using native::imap::parse_internal_date;

TEST_CASE("encoded-words in Subject and in address names become UTF-8") {
  std::string block =
      "From: =?ISO-8859-1?Q?J=F6rg_M=FCller?= <jorg@example.org>\r\n"
      "To: alice@example.test, \"Doe, John\" <john@example.test>\r\n"
      "Subject: =?UTF-8?B?SGVsbG8gd8O2cmxk?=\r\n"
      "\t=?UTF-8?Q?_again?=\r\n"
      "Date: Mon, 24 Nov 2025 10:00:00 +0100\r\n"
      "\r\n";
  auto h = decode_summary_headers(block, std::nullopt);
  CHECK(h.from == "J\xc3\xb6rg M\xc3\xbcller <jorg@example.org>");
  CHECK(h.to == "alice@example.test, \"Doe, John\" <john@example.test>");
  CHECK(h.subject == "Hello w\xc3\xb6rld again");
  CHECK(h.date_iso == "2025-11-24T09:00:00Z");
}

TEST_CASE("field names are matched without case; the first occurrence counts; LF line ends work") {
  std::string block = "subject: first\nSUBJECT: second\nfrom: a@example.test\n";
  auto h = decode_summary_headers(block, std::nullopt);
  CHECK(h.subject == "first");
  CHECK(h.from == "a@example.test");
  CHECK(h.to.empty());
  CHECK(h.date_iso.empty());
}

TEST_CASE("a missing or unparsable Date falls back to the arrival time") {
  auto arrived = parse_internal_date("24-Nov-2025 09:00:00 +0100");
  REQUIRE(arrived.has_value());
  CHECK(native::imap::iso_utc(*arrived) == "2025-11-24T08:00:00Z");
  CHECK(decode_summary_headers("Subject: x\r\n", arrived).date_iso == "2025-11-24T08:00:00Z");
  CHECK(decode_summary_headers("Date: not a date\r\n", arrived).date_iso == "2025-11-24T08:00:00Z");
}

TEST_CASE("raw UTF-8 and undecodable words never fail") {
  auto h = decode_summary_headers("Subject: caf\xc3\xa9 =?bogus?X?zz?=\r\n", std::nullopt);
  CHECK(h.subject.starts_with("caf\xc3\xa9"));
  auto empty = decode_summary_headers("", std::nullopt);
  CHECK(empty.subject.empty());
  CHECK(empty.from.empty());
}

TEST_CASE("INTERNALDATE: space-padded days, offsets both ways, malformed text") {
  CHECK(native::imap::iso_utc(*parse_internal_date(" 4-Jan-2026 23:30:00 -0130")) == "2026-01-05T01:00:00Z");
  CHECK(native::imap::iso_utc(*parse_internal_date("29-Feb-2024 00:00:00 +0000")) == "2024-02-29T00:00:00Z");
  CHECK_FALSE(parse_internal_date("30-Feb-2024 00:00:00 +0000").has_value());
  CHECK_FALSE(parse_internal_date("24-Foo-2025 09:00:00 +0100").has_value());
  CHECK_FALSE(parse_internal_date("24-Nov-2025 09:00:00").has_value());
  CHECK_FALSE(parse_internal_date("").has_value());
}
