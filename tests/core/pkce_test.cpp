#include "core/pkce.h"

#include <doctest/doctest.h>

#include <string>

using namespace core;

namespace {

std::string code_of(const Status& s) {
  return s ? "ok" : s.error().code;
}

constexpr std::string_view kVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
constexpr std::string_view kChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

}  // namespace

TEST_CASE("RFC 7636 Appendix B: the S256 example") {
  CHECK(code_of(validate_code_verifier(kVerifier)) == "ok");
  CHECK(pkce_s256_challenge(kVerifier) == kChallenge);
  CHECK(code_of(validate_code_challenge(kChallenge)) == "ok");
  CHECK(pkce_s256_matches(kVerifier, kChallenge));
}

TEST_CASE("pkce_s256_matches refuses other verifiers and challenges") {
  std::string other(kVerifier);
  other[0] = 'e';
  CHECK_FALSE(pkce_s256_matches(other, kChallenge));
  CHECK_FALSE(pkce_s256_matches(kVerifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cN"));
  CHECK_FALSE(pkce_s256_matches(kVerifier, ""));
  CHECK_FALSE(pkce_s256_matches(kVerifier, std::string(kChallenge) + "="));
  // "plain" is not supported: the verifier itself is not its own challenge.
  CHECK_FALSE(pkce_s256_matches(kVerifier, kVerifier));
  // A malformed verifier never matches, even against its own digest.
  const std::string short_verifier(42, 'a');
  CHECK_FALSE(pkce_s256_matches(short_verifier, pkce_s256_challenge(short_verifier)));
}

TEST_CASE("validate_code_verifier: 43 to 128 unreserved characters") {
  CHECK(code_of(validate_code_verifier(std::string(43, 'a'))) == "ok");
  CHECK(code_of(validate_code_verifier(std::string(128, '~'))) == "ok");
  CHECK(code_of(validate_code_verifier(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) == "ok");
  CHECK(code_of(validate_code_verifier(std::string(42, 'a'))) == "invalid_code_verifier");
  CHECK(code_of(validate_code_verifier(std::string(129, 'a'))) == "invalid_code_verifier");
  CHECK(code_of(validate_code_verifier("")) == "invalid_code_verifier");
  for (char bad : {'+', '/', '=', ' ', '%', '!', '\0', '\n'}) {
    std::string verifier(43, 'a');
    verifier[20] = bad;
    CAPTURE(int(bad));
    CHECK(code_of(validate_code_verifier(verifier)) == "invalid_code_verifier");
  }
  CHECK(code_of(validate_code_verifier(std::string(41, 'a') + "\xc3\xa9")) == "invalid_code_verifier");
}

TEST_CASE("validate_code_challenge: 43 base64url characters of a 32-byte digest") {
  CHECK(code_of(validate_code_challenge(std::string(43, 'A'))) == "ok");
  CHECK(code_of(validate_code_challenge(std::string(42, 'A'))) == "invalid_code_challenge");
  CHECK(code_of(validate_code_challenge(std::string(44, 'A'))) == "invalid_code_challenge");
  CHECK(code_of(validate_code_challenge(std::string(42, 'A') + "=")) == "invalid_code_challenge");
  CHECK(code_of(validate_code_challenge(std::string(42, 'A') + "+")) == "invalid_code_challenge");
  // 43 characters carry 258 bits: the last one must leave its two low bits zero.
  CHECK(code_of(validate_code_challenge(std::string(42, 'A') + "B")) == "invalid_code_challenge");
  CHECK(code_of(validate_code_challenge(std::string(42, 'A') + "E")) == "ok");
}
