#include "core/crypto.h"

#include <doctest/doctest.h>

#include <string>

using namespace core;

TEST_CASE("SHA-256 matches the FIPS 180-2 vectors") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex_encode(sha256("abc")) == sha256_hex("abc"));
}

TEST_CASE("HMAC-SHA256 matches RFC 4231") {
  // Test case 1: 20-byte key of 0x0b.
  CHECK(hex_encode(hmac_sha256(std::string(20, '\x0b'), "Hi There")) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // Test case 2: a key shorter than the output.
  CHECK(hex_encode(hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 6: a 131-byte key, longer than the 64-byte block, is hashed first.
  CHECK(hex_encode(hmac_sha256(std::string(131, '\xaa'),
                               "Test Using Larger Than Block-Size Key - Hash Key First")) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("constant_time_equal") {
  CHECK(constant_time_equal("sha256=abc", "sha256=abc"));
  CHECK_FALSE(constant_time_equal("sha256=abc", "sha256=abd"));
  CHECK_FALSE(constant_time_equal("xbc", "abc"));  // differs in the first byte
  CHECK_FALSE(constant_time_equal("abc", "abcd"));
  CHECK_FALSE(constant_time_equal("abcd", "abc"));
  CHECK_FALSE(constant_time_equal("", "a"));
  CHECK(constant_time_equal("", ""));
  const Digest a = sha256("x");
  Digest b = a;
  CHECK(constant_time_equal(a, b));
  b[31] ^= 1;
  CHECK_FALSE(constant_time_equal(a, b));
}
