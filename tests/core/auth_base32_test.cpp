#include "core/auth/base32.h"

#include <doctest/doctest.h>

#include <string>

using namespace core;
using namespace core::auth;

namespace {

std::string encode(std::string_view text) {
  return base32_encode(as_bytes(text));
}

// The decoded bytes as text, or the error code.
std::string decode(std::string_view text) {
  auto decoded = base32_decode(text);
  return decoded ? to_string(*decoded) : "error:" + decoded.error().code;
}

}  // namespace

TEST_CASE("base32_encode: RFC 4648 §10 vectors, without padding") {
  CHECK(encode("") == "");
  CHECK(encode("f") == "MY");
  CHECK(encode("fo") == "MZXQ");
  CHECK(encode("foo") == "MZXW6");
  CHECK(encode("foob") == "MZXW6YQ");
  CHECK(encode("fooba") == "MZXW6YTB");
  CHECK(encode("foobar") == "MZXW6YTBOI");
}

TEST_CASE("base32_decode: RFC 4648 §10 vectors, padded and unpadded") {
  CHECK(decode("") == "");
  CHECK(decode("MY======") == "f");
  CHECK(decode("MZXQ====") == "fo");
  CHECK(decode("MZXW6===") == "foo");
  CHECK(decode("MZXW6YQ=") == "foob");
  CHECK(decode("MZXW6YTB") == "fooba");
  CHECK(decode("MZXW6YTBOI======") == "foobar");
  CHECK(decode("MY") == "f");
  CHECK(decode("MZXW6YTBOI") == "foobar");
}

TEST_CASE("base32_decode is lenient with secrets typed by a person") {
  CHECK(decode("mzxw6ytboi") == "foobar");
  CHECK(decode("mzxw 6ytb oi") == "foobar");
  CHECK(decode("MZXW-6YTB-OI") == "foobar");
  CHECK(decode(" MzXw6yTbOi== ") == "foobar");
  CHECK(decode("MZXW6YTBOI=") == "foobar");  // any amount of padding
}

TEST_CASE("base32_decode refuses what no encoder writes") {
  CHECK(decode("MZXW0YTB") == "error:invalid_base32");  // 0, 1, 8, 9 are not in the alphabet
  CHECK(decode("MZXW1YTB") == "error:invalid_base32");
  CHECK(decode("MZXW8YTB") == "error:invalid_base32");
  CHECK(decode("MZXW_YTB") == "error:invalid_base32");
  CHECK(decode("MZXW\tYTB") == "error:invalid_base32");
  CHECK(decode("MZ=XW6") == "error:invalid_base32");  // padding in the middle
  CHECK(decode("M") == "error:invalid_base32");       // 1, 3 or 6 characters cannot end a group
  CHECK(decode("MZX") == "error:invalid_base32");
  CHECK(decode("MZXW6Y") == "error:invalid_base32");
  CHECK(decode("MZXW6YTBO") == "error:invalid_base32");
}

TEST_CASE("base32 round trip of every byte value and length") {
  Bytes data;
  for (int n = 0; n < 256; ++n) {
    auto decoded = base32_decode(base32_encode(data));
    REQUIRE(decoded);
    CHECK(*decoded == data);
    data.push_back(static_cast<std::uint8_t>(255 - n));
  }
}
