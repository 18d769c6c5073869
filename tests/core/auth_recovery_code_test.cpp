#include "core/auth/recovery_code.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "core/crypto.h"
#include "counting_random.h"

using namespace core;
using namespace core::auth;

namespace {

std::string normalized(std::string_view text) {
  auto code = normalize_recovery_code(text);
  return code ? *code : "error:" + code.error().code;
}

}  // namespace

TEST_CASE("make_recovery_codes: ten codes of three groups of four") {
  testing::CountingRandom random;
  const auto codes = make_recovery_codes(random);
  REQUIRE(codes.size() == 10);
  // Bytes 0, 1, 2, ... index the alphabet a-z without i, l, o, then 2-9; byte 31 starts it again.
  CHECK(codes[0] == "abcd-efgh-jkmn");
  CHECK(codes[1] == "pqrs-tuvw-xyz2");
  CHECK(codes[2] == "3456-789a-bcde");
  for (const std::string& code : codes) {
    CHECK(code.size() == 14);
    CHECK(normalized(code).size() == 12);
  }
}

TEST_CASE("make_recovery_codes redraws bytes that would bias the alphabet") {
  // 248..255 are the bytes above the largest multiple of 31: they are skipped, not folded onto a..h.
  testing::CountingRandom random(248);
  CHECK(make_recovery_codes(random, 1) == std::vector<std::string>{"abcd-efgh-jkmn"});
}

TEST_CASE("make_recovery_codes: the count asked for, all distinct") {
  testing::CountingRandom random;
  CHECK(make_recovery_codes(random, 0).empty());
  const auto codes = make_recovery_codes(random, 16);
  CHECK(codes.size() == 16);
  CHECK(std::set<std::string>(codes.begin(), codes.end()).size() == 16);
}

TEST_CASE("normalize_recovery_code: lower case without spaces and dashes") {
  CHECK(normalized("abcd-efgh-jkmn") == "abcdefghjkmn");
  CHECK(normalized("ABCD-EFGH-JKMN") == "abcdefghjkmn");
  CHECK(normalized(" abcd efgh jkmn\n") == "abcdefghjkmn");
  CHECK(normalized("abcdefghjkmn") == "abcdefghjkmn");
  CHECK(normalized("ab-cd--ef gh-jk-mn") == "abcdefghjkmn");
  // What the caller stores and looks up: the same hash however the code was typed.
  CHECK(sha256_hex(normalized("ABCD EFGH JKMN")) == sha256_hex(normalized("abcd-efgh-jkmn")));
}

TEST_CASE("normalize_recovery_code refuses wrong lengths and characters outside the alphabet") {
  CHECK(normalized("") == "error:invalid_recovery_code");
  CHECK(normalized("abcd-efgh-jkm") == "error:invalid_recovery_code");
  CHECK(normalized("abcd-efgh-jkmnp") == "error:invalid_recovery_code");
  CHECK(normalized("abcd-efgh-jkm0") == "error:invalid_recovery_code");  // 0, 1, o, l, i are never issued
  CHECK(normalized("abcd-efgh-jkm1") == "error:invalid_recovery_code");
  CHECK(normalized("abcd-efgh-jkmo") == "error:invalid_recovery_code");
  CHECK(normalized("abcd-efgh-jkml") == "error:invalid_recovery_code");
  CHECK(normalized("abcd-efgh-jkmi") == "error:invalid_recovery_code");
  CHECK(normalized("abcd_efgh_jkmn") == "error:invalid_recovery_code");
}
