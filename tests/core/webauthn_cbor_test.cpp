// The strict CBOR decoder under WebAuthn (core/auth/webauthn/cbor.h): RFC 8949 items, and every way a
// hostile or broken encoding is refused.

#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "core/auth/webauthn/cbor.h"
#include "core/bytes.h"

using namespace core;
using namespace core::webauthn;

namespace {

CborValue decode_hex(std::string_view hex) {
  auto r = decode_cbor(hex_decode(hex).value());
  REQUIRE_MESSAGE(r.ok(), r.error().message);
  return std::move(r).value();
}

std::string refusal(std::string_view hex) {
  auto r = decode_cbor(hex_decode(hex).value());
  if (r) return "accepted";
  CHECK(r.error().code == "invalid_cbor");
  return r.error().message;
}

Bytes nested_arrays(std::size_t levels) {
  Bytes b(levels, 0x81);  // array of one item, `levels` times
  b.push_back(0x00);
  return b;
}

}  // namespace

TEST_CASE("integers in every argument size, as int64 where they fit") {
  CHECK(decode_hex("00").as_int64() == 0);
  CHECK(decode_hex("17").as_int64() == 23);
  CHECK(decode_hex("1818").as_int64() == 24);
  CHECK(decode_hex("190100").as_int64() == 256);
  CHECK(decode_hex("1a00010000").as_int64() == 65536);
  CHECK(decode_hex("1b7fffffffffffffff").as_int64() == std::numeric_limits<std::int64_t>::max());
  CborValue big = decode_hex("1bffffffffffffffff");
  CHECK(big.type == CborType::unsigned_integer);
  CHECK(big.argument == std::numeric_limits<std::uint64_t>::max());
  CHECK_FALSE(big.as_int64().has_value());

  CHECK(decode_hex("20").as_int64() == -1);
  CHECK(decode_hex("3863").as_int64() == -100);
  CHECK(decode_hex("390100").as_int64() == -257);
  CHECK(decode_hex("3b7fffffffffffffff").as_int64() == std::numeric_limits<std::int64_t>::min());
  CHECK_FALSE(decode_hex("3b8000000000000000").as_int64().has_value());
  // A longer form than needed is unambiguous and accepted.
  CHECK(decode_hex("1801").as_int64() == 1);
}

TEST_CASE("byte strings, UTF-8 text strings, arrays, maps and simple values") {
  CHECK(decode_hex("43010203").bytes == Bytes{1, 2, 3});
  CHECK(decode_hex("40").bytes.empty());
  CHECK(decode_hex("63616263").text == "abc");
  CHECK(decode_hex("62c3bc").text == "\xc3\xbc");
  CHECK(decode_hex("64f09f9491").text == "\xf0\x9f\x94\x91");

  CborValue array = decode_hex("8301820203a0");
  REQUIRE(array.type == CborType::array);
  REQUIRE(array.items.size() == 3);
  CHECK(array.items[1].items.size() == 2);
  CHECK(array.items[2].type == CborType::map);

  CborValue map = decode_hex("a301022043abcdef6178f5");
  REQUIRE(map.type == CborType::map);
  CHECK(map.find(1)->as_int64() == 2);
  CHECK(map.find(-1)->bytes == Bytes{0xab, 0xcd, 0xef});
  CHECK(map.find("x")->is_true());
  CHECK(map.find(2) == nullptr);
  CHECK(map.find("y") == nullptr);
  CHECK(array.find(1) == nullptr);

  CHECK(decode_hex("f4").is_bool());
  CHECK_FALSE(decode_hex("f4").is_true());
  CHECK(decode_hex("f5").is_true());
  CHECK(decode_hex("f6").is_null());
  CHECK(decode_hex("f7").argument == 23);  // undefined
  CHECK(decode_hex("f0").argument == 16);  // unassigned, but well-formed
  CHECK(decode_hex("f820").argument == 32);
}

TEST_CASE("truncated input is refused wherever it stops") {
  CHECK(refusal("") == "CBOR data ends in the middle of an item");
  for (std::string_view hex :
       {"18", "1901", "1b00000000000000", "430102", "6261", "8201", "a101", "a1", "5b"}) {
    CAPTURE(hex);
    CHECK(refusal(hex) == "CBOR data ends in the middle of an item");
  }
}

TEST_CASE("a length beyond the input is refused before anything is allocated") {
  CHECK(refusal("5bffffffffffffffff") == "CBOR data ends in the middle of an item");
  CHECK(refusal("9bffffffffffffffff") == "CBOR data ends in the middle of an item");
  CHECK(refusal("9a7fffffff00") == "CBOR data ends in the middle of an item");
  CHECK(refusal("bbffffffffffffffff") == "a CBOR map has more than 256 entries");
  CHECK(refusal("b8ff0000") == "CBOR data ends in the middle of an item");
}

TEST_CASE("indefinite lengths, tags, floats and reserved values are refused") {
  for (std::string_view hex : {"5f4101ff", "7f6161ff", "9f01ff", "bf0101ff"}) {
    CAPTURE(hex);
    CHECK(refusal(hex) == "CBOR data uses an indefinite length, which is not accepted");
  }
  CHECK(refusal("ff") == "CBOR data contains an unexpected break code");
  CHECK(refusal("c074323031332d30332d32315432303a30343a30305a") ==
        "CBOR data contains a tag, which is not accepted");
  CHECK(refusal("d82401") == "CBOR data contains a tag, which is not accepted");
  for (std::string_view hex : {"f93c00", "fa47c35000", "fb3ff199999999999a"}) {
    CAPTURE(hex);
    CHECK(refusal(hex) == "CBOR data contains a floating-point number, which is not accepted");
  }
  for (std::string_view hex : {"1c", "3d", "5e", "fc"}) {
    CAPTURE(hex);
    CHECK(refusal(hex) == "CBOR data uses a reserved additional-information value");
  }
  CHECK(refusal("f814") ==
        "CBOR data encodes a simple value below 32 in two bytes, which is not well-formed");
}

TEST_CASE("text strings must be UTF-8") {
  for (std::string_view hex : {"61ff", "62c080", "63eda080", "64f4908080", "61c3", "62e282"}) {
    CAPTURE(hex);
    CHECK(refusal(hex) == "a CBOR text string is not valid UTF-8");
  }
}

TEST_CASE("maps: keys are integers or text, each at most once") {
  CHECK(refusal("a2010102") == "CBOR data ends in the middle of an item");
  CHECK(refusal("a201010102") == "a CBOR map contains the same key twice");
  CHECK(refusal("a2616101616102") == "a CBOR map contains the same key twice");
  // The same key in two encodings is still the same key.
  CHECK(refusal("a20100180100") == "a CBOR map contains the same key twice");
  CHECK(refusal("a1400100") == "a CBOR map key is neither an integer nor a text string");
  CHECK(refusal("a18000") == "a CBOR map key is neither an integer nor a text string");
  CHECK(refusal("a1f500") == "a CBOR map key is neither an integer nor a text string");
  // An integer key and a text key never collide.
  CHECK(decode_hex("a20100613100").entries.size() == 2);
}

TEST_CASE("nesting is limited to kMaxCborDepth containers") {
  CHECK(decode_cbor(nested_arrays(kMaxCborDepth)).ok());
  auto deep = decode_cbor(nested_arrays(kMaxCborDepth + 1));
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.error().message == "CBOR data is nested more than 16 levels deep");
  // Far deeper input fails the same way, without exhausting the stack.
  CHECK(decode_cbor(nested_arrays(100000)).error().code == "invalid_cbor");
}

TEST_CASE("decode_cbor wants exactly one item; decode_cbor_prefix reports how much it used") {
  CHECK(refusal("0102") == "CBOR data has 1 trailing byte after its item");
  CHECK(refusal("a0000000") == "CBOR data has 3 trailing bytes after its item");

  const Bytes data = hex_decode("a201020304ff").value();
  auto prefix = decode_cbor_prefix(data);
  REQUIRE(prefix.ok());
  CHECK(prefix->consumed == 5);
  CHECK(prefix->value.find(3)->as_int64() == 4);
  CHECK(decode_cbor_prefix(hex_decode("8201").value()).error().code == "invalid_cbor");
}
