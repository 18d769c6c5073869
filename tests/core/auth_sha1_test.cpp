#include "core/auth/sha1.h"

#include <doctest/doctest.h>

#include <string>

#include "core/bytes.h"

using namespace core;
using namespace core::auth;

namespace {

std::string sha1_hex(std::string_view data) {
  return hex_encode(sha1(data));
}

std::string hmac_sha1_hex(std::string_view key, std::string_view message) {
  return hex_encode(hmac_sha1(key, message));
}

}  // namespace

TEST_CASE("sha1: the FIPS 180 example messages") {
  CHECK(sha1_hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(sha1_hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  CHECK(sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  CHECK(sha1_hex(std::string(1000000, 'a')) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST_CASE("sha1: lengths around the block and padding boundaries") {
  // Up to 55 bytes the length fits in the last block; from 56 it needs one more. Digests from Python's
  // hashlib.
  CHECK(sha1_hex(std::string(55, 'a')) == "c1c8bbdc22796e28c0e15163d20899b65621d65a");
  CHECK(sha1_hex(std::string(56, 'a')) == "c2db330f6083854c99d4b5bfb6e8f29f201be699");
  CHECK(sha1_hex(std::string(63, 'a')) == "03f09f5b158a7a8cdad920bddc29b81c18a551f5");
  CHECK(sha1_hex(std::string(64, 'a')) == "0098ba824b5c16427bd7a1122a5a442a25ec644d");
  CHECK(sha1_hex(std::string(65, 'a')) == "11655326c708d70319be2610e8a57d9a5b959d3b");
  CHECK(sha1_hex(std::string(119, 'a')) == "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56");
  CHECK(sha1_hex(std::string(120, 'a')) == "f34c1488385346a55709ba056ddd08280dd4c6d6");
  CHECK(sha1_hex(std::string(128, 'a')) == "ad5b3fdbcb526778c2839d2f151ea753995e26a0");
}

TEST_CASE("hmac_sha1: RFC 2202 test cases 1, 2 and 6") {
  CHECK(hmac_sha1_hex(std::string(20, '\x0b'), "Hi There") == "b617318655057264e28bc0b6fb378c8ef146be00");
  CHECK(hmac_sha1_hex("Jefe", "what do ya want for nothing?") == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
  // A key longer than the block is hashed first.
  CHECK(hmac_sha1_hex(std::string(80, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First") ==
        "aa4ae5e15272d00e95705637ce8a3b55ed402112");
  // A key of exactly one block is used as is; one byte more and it is hashed (digests from Python's hmac).
  CHECK(hmac_sha1_hex(std::string(64, 'k'), "m") == "d52b5b30393c20f423870bb6d0ad622b02848ca9");
  CHECK(hmac_sha1_hex(std::string(65, 'k'), "m") == "d7ab367121230c7e073a785f02c779c915e96d01");
}
