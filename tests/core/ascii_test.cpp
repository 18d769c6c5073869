#include "core/ascii.h"

#include <doctest/doctest.h>

#include <string>

using namespace core;

TEST_CASE("ASCII case mapping leaves non-ASCII bytes alone") {
  CHECK(to_ascii_lower("Example.COM") == "example.com");
  CHECK(to_ascii_lower("\xc3\x84Z") == "\xc3\x84z");  // "ÄZ": only the Z changes
  CHECK(ascii_iequals("Alice@Example.com", "alice@example.COM"));
  CHECK_FALSE(ascii_iequals("alice", "alicE1"));
  CHECK_FALSE(ascii_iequals("\xc3\x84", "\xc3\xa4"));  // Ä and ä differ outside ASCII
  CHECK(ascii_iequals("", ""));
  CHECK(is_ascii_hex_digit('F'));
  CHECK_FALSE(is_ascii_hex_digit('g'));
  CHECK_FALSE(is_ascii_alnum('-'));
}

TEST_CASE("quote_for_message makes input safe for a message") {
  CHECK(quote_for_message("domains.view") == "'domains.view'");
  CHECK(quote_for_message("") == "''");
  CHECK(quote_for_message("a\nb\xff") == "'a?b?'");
  CHECK(quote_for_message(std::string(64, 'x')) == "'" + std::string(64, 'x') + "'");
  CHECK(quote_for_message(std::string(65, 'x')) == "'" + std::string(64, 'x') + "...'");
}

TEST_CASE("trim_ascii_space drops ASCII whitespace at both ends only") {
  CHECK(core::trim_ascii_space(" \t\r\n\f\vcash \t") == "cash");
  CHECK(core::trim_ascii_space("dine in") == "dine in");
  CHECK(core::trim_ascii_space(" \t ").empty());
  CHECK(core::trim_ascii_space("").empty());
  CHECK(core::trim_ascii_space("\xC2\xA0x") ==
        "\xC2\xA0x");  // a UTF-8 no-break space is not ASCII whitespace
}

TEST_CASE("percent_encode keeps the unreserved characters and those asked for") {
  CHECK(core::percent_encode("a-b.c_d~E9") == "a-b.c_d~E9");
  CHECK(core::percent_encode("a b&c=d/é%") == "a%20b%26c%3Dd%2F%C3%A9%25");
  CHECK(core::percent_encode("ada@x.test:1", "@") == "ada@x.test%3A1");
}
