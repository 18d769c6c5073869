#include "core/bytes.h"

#include <doctest/doctest.h>

using namespace core;

TEST_CASE("base64url follows RFC 4648 test vectors without padding") {
  CHECK(base64url_encode(as_bytes("")) == "");
  CHECK(base64url_encode(as_bytes("f")) == "Zg");
  CHECK(base64url_encode(as_bytes("fo")) == "Zm8");
  CHECK(base64url_encode(as_bytes("foo")) == "Zm9v");
  CHECK(base64url_encode(as_bytes("foob")) == "Zm9vYg");
  CHECK(base64url_encode(as_bytes("fooba")) == "Zm9vYmE");
  CHECK(base64url_encode(as_bytes("foobar")) == "Zm9vYmFy");
  const std::uint8_t high[] = {0xfb, 0xff};
  CHECK(base64url_encode(high) == "-_8");
}

TEST_CASE("base64url decoding round-trips and rejects bad text") {
  auto d = base64url_decode("Zm9vYmE");
  REQUIRE(d.ok());
  CHECK(to_string(*d) == "fooba");
  CHECK(to_string(*base64url_decode("-_8")) == "\xfb\xff");
  CHECK_FALSE(base64url_decode("Zm9vYg==").ok());  // padding is not part of base64url here
  CHECK_FALSE(base64url_decode("Zm9v+").ok());     // '+' belongs to the other alphabet
  CHECK_FALSE(base64url_decode("Z").ok());         // impossible length
  CHECK_FALSE(base64url_decode("Zh").ok());        // non-zero trailing bits ("Zg" is canonical)
}

TEST_CASE("hex encodes lower case and decodes both cases") {
  const std::uint8_t b[] = {0x00, 0xab, 0xff};
  CHECK(hex_encode(b) == "00abff");
  auto d = hex_decode("00ABff");
  REQUIRE(d.ok());
  CHECK(*d == Bytes{0x00, 0xab, 0xff});
  CHECK(hex_decode("abc").error().code == "invalid_hex");
  CHECK(hex_decode("zz").error().code == "invalid_hex");
}

TEST_CASE("standard base64 with padding, as HTTP Basic credentials use it") {
  CHECK(to_string(*base64_decode("Zm9vYmE=")) == "fooba");
  CHECK(to_string(*base64_decode("Zm9vYmFy")) == "foobar");
  CHECK(to_string(*base64_decode("+/8=")) == "\xfb\xff");
  CHECK(base64_decode("Zm9vYmE").error().code == "invalid_base64");  // padding required
  CHECK_FALSE(base64_decode("-_8=").ok());                           // the URL alphabet is not this one
  CHECK_FALSE(base64_decode("Zm9v====").ok());
}
