#include "core/jwt.h"

#include <doctest/doctest.h>

#include <string>

#include "core/crypto.h"
#include "tests/core/jose_vectors.h"

using namespace core;

namespace {

std::string a1_key() {
  return to_string(base64url_decode(vectors::kA1Key).value());
}

std::string b64(std::string_view text) {
  return base64url_encode(as_bytes(text));
}

// A token with the given header and payload text and a signature part of "sig" bytes: enough for the
// checks that come before any signature check.
std::string unsigned_token(std::string_view header, std::string_view payload) {
  return b64(header) + "." + b64(payload) + "." + b64("sig");
}

std::string code_of(const Result<Jwt>& r) {
  return r ? "ok" : r.error().code;
}
std::string code_of(const Status& s) {
  return s ? "ok" : s.error().code;
}

}  // namespace

TEST_CASE("RFC 7515 A.1: the HS256 example verifies with the example key") {
  auto jwt = verify_hs256(vectors::kA1Compact, a1_key());
  REQUIRE(jwt.ok());
  CHECK(json::serialize(jwt->header) == R"({"typ":"JWT","alg":"HS256"})");
  CHECK(json::serialize(jwt->claims) ==
        R"({"iss":"joe","exp":1300819380,"http://example.com/is_root":true})");
  CHECK(jwt->signing_input == vectors::kA1Compact.substr(0, vectors::kA1Compact.rfind('.')));
  CHECK(base64url_encode(jwt->signature) == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
  CHECK(jwt_alg(*jwt) == "HS256");
}

TEST_CASE("RFC 7515 A.1: HMAC over the exact header and payload bytes gives the example signature") {
  // The example's JSON has CRLFs and spaces that no serializer reproduces, so the signing input is built
  // from the raw bytes here, the same way encode_jwt builds it from serialized JSON.
  const std::string signing_input = b64(vectors::kA1Header) + "." + b64(vectors::kA1Payload);
  CHECK(signing_input == vectors::kA1Compact.substr(0, vectors::kA1Compact.rfind('.')));
  CHECK(base64url_encode(hmac_sha256(a1_key(), signing_input)) ==
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
}

TEST_CASE("encode_jwt: base64url of the serialized header and claims, signed over the signing input") {
  json::object header{{"alg", "X"}}, claims{{"sub", "u"}, {"n", 1}};
  std::string seen;
  const std::string token = encode_jwt(header, claims, [&](std::string_view input) {
    seen = std::string(input);
    return Bytes{0xfb, 0xff};
  });
  CHECK(seen == b64(R"({"alg":"X"})") + "." + b64(R"({"sub":"u","n":1})"));
  CHECK(token == seen + ".-_8");
}

TEST_CASE("sign_hs256 reproduces a known token and round-trips through verify_hs256") {
  // The widely published HS256 example (header {"alg":"HS256","typ":"JWT"}, secret "your-256-bit-secret").
  const json::object claims{{"sub", "1234567890"}, {"name", "John Doe"}, {"iat", 1516239022}};
  const std::string token = sign_hs256(claims, "your-256-bit-secret");
  CHECK(token ==
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5"
        "MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c");
  auto jwt = verify_hs256(token, "your-256-bit-secret");
  REQUIRE(jwt.ok());
  CHECK(jwt->claims == claims);

  const std::string with_kid = sign_hs256(claims, "s3cret", "k1");
  auto decoded = verify_hs256(with_kid, "s3cret");
  REQUIRE(decoded.ok());
  CHECK(json::serialize(decoded->header) == R"({"alg":"HS256","typ":"JWT","kid":"k1"})");
}

TEST_CASE("validate_hs256_secret wants at least 32 bytes") {
  CHECK(code_of(validate_hs256_secret(std::string(31, 'x'))) == "weak_secret");
  CHECK(code_of(validate_hs256_secret(std::string(32, 'x'))) == "ok");
}

TEST_CASE("verify_hs256 refuses wrong keys and altered tokens with invalid_signature") {
  const std::string token(vectors::kA1Compact);
  CHECK(code_of(verify_hs256(token, "wrong key")) == "invalid_signature");
  CHECK(code_of(verify_hs256(token, a1_key().substr(1))) == "invalid_signature");
  // Same header and signature, another payload.
  const std::size_t dot1 = token.find('.'), dot2 = token.rfind('.');
  const std::string other_payload =
      token.substr(0, dot1) + "." + b64(R"({"iss":"joe","exp":9999999999})") + token.substr(dot2);
  CHECK(code_of(verify_hs256(other_payload, a1_key())) == "invalid_signature");
  // A changed signature byte, a truncated and an empty signature.
  std::string flipped = token;
  flipped[dot2 + 1] = flipped[dot2 + 1] == 'A' ? 'B' : 'A';
  CHECK(code_of(verify_hs256(flipped, a1_key())) == "invalid_signature");
  CHECK(code_of(verify_hs256(token.substr(0, token.size() - 3), a1_key())) == "invalid_signature");
  CHECK(code_of(verify_hs256(token.substr(0, dot2 + 1), a1_key())) == "invalid_signature");
}

TEST_CASE("verify_hs256 accepts only alg HS256: none, other algs and case variants are unsupported_alg") {
  const std::string payload = R"({"iss":"joe"})";
  // The classic "alg":"none" token with an empty signature, and with the HS256 signature left on.
  CHECK(code_of(verify_hs256(b64(R"({"alg":"none"})") + "." + b64(payload) + ".", "k")) == "unsupported_alg");
  for (const char* alg : {"none", "None", "NONE", "hs256", "HS256 ", "HS384", "HS512", "RS256", ""}) {
    const std::string header = std::string(R"({"alg":")") + alg + "\"}";
    CAPTURE(alg);
    CHECK(code_of(verify_hs256(unsigned_token(header, payload), "k")) == "unsupported_alg");
  }
  // An RS256 token (RFC 7515 A.2) given to the HS256 verifier.
  const std::string a2 = std::string(vectors::kA2SigningInput) + "." + std::string(vectors::kA2Signature);
  CHECK(code_of(verify_hs256(a2, "k")) == "unsupported_alg");
}

TEST_CASE("decode_jwt refuses malformed compact strings with invalid_jwt") {
  const std::string h = b64(R"({"alg":"HS256"})"), p = b64(R"({"sub":"u"})"), s = b64("sig");
  const std::string cases[] = {
      "",
      "abc",
      h + "." + p,                                                   // two parts
      h + "." + p + "." + s + "." + s,                               // four parts (JWE has five)
      "..",                                                          // empty header and payload
      "." + p + "." + s,                                             // empty header
      h + ".." + s,                                                  // empty payload
      h + "=." + p + "." + s,                                        // padding
      h + "." + p + "." + s + "=",                                   // padding on the signature
      h + "." + p + ".a",                                            // impossible base64url length
      h + "." + p + "." + s + "+",                                   // standard base64 character
      h + " ." + p + "." + s,                                        // whitespace
      b64("[1]") + "." + p + "." + s,                                // header is an array
      b64("not json") + "." + p + "." + s,                           // header is not JSON
      h + "." + b64("\"sub\"") + "." + s,                            // payload is a string
      h + "." + b64("{\"a\":1} x") + "." + s,                        // trailing garbage after the JSON
      b64("{}") + "." + p + "." + s,                                 // no alg
      b64(R"({"alg":5})") + "." + p + "." + s,                       // alg not a string
      b64(R"({"alg":null})") + "." + p + "." + s,                    // alg null
      b64(R"({"alg":"HS256","crit":["exp"]})") + "." + p + "." + s,  // critical extension
      h + "." + b64("{\"s\":\"\xff\"}") + "." + s,                   // not UTF-8
  };
  for (const std::string& text : cases) {
    CAPTURE(text);
    auto r = decode_jwt(text);
    CHECK(code_of(r) == "invalid_jwt");
    CHECK(code_of(verify_hs256(text, "k")) == "invalid_jwt");
  }
  // Length bound: one byte over kMaxJwtLength fails before any decoding.
  const std::string padded_payload = b64("{\"x\":\"" + std::string(kMaxJwtLength, 'a') + "\"}");
  CHECK(code_of(decode_jwt(h + "." + padded_payload + "." + s)) == "invalid_jwt");
}

TEST_CASE("decode_jwt keeps the last of duplicate members and the signing input as received") {
  const std::string header = b64(R"({"alg":"none","alg":"HS256"})");
  auto jwt = decode_jwt(header + "." + b64(R"({"a":1,"a":2})") + ".");
  REQUIRE(jwt.ok());
  CHECK(jwt_alg(*jwt) == "HS256");
  CHECK(jwt->claims.at("a") == 2);
  CHECK(jwt->signing_input == header + "." + b64(R"({"a":1,"a":2})"));
  CHECK(jwt->signature.empty());
}

namespace {

Jwt with_claims(json::object claims) {
  Jwt jwt;
  jwt.header = {{"alg", "HS256"}};
  jwt.claims = std::move(claims);
  return jwt;
}

ClaimChecks checks_at(std::int64_t now, std::int64_t leeway = 0) {
  return ClaimChecks{"https://auth.example", "client-1", now, leeway, std::nullopt};
}

json::object good_claims() {
  return {{"iss", "https://auth.example"}, {"aud", "client-1"}, {"exp", 1000}, {"iat", 900}, {"nbf", 900}};
}

}  // namespace

TEST_CASE("check_claims: issuer and audience") {
  CHECK(code_of(check_claims(with_claims(good_claims()), checks_at(950))) == "ok");

  auto claims = good_claims();
  claims["iss"] = "https://auth.example/";
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_issuer");
  claims.erase("iss");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_issuer");
  claims["iss"] = 1;
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_issuer");
  // An empty expected issuer matches nothing, not even an empty claim.
  claims["iss"] = "";
  auto empty_issuer = checks_at(950);
  empty_issuer.issuer = "";
  CHECK(code_of(check_claims(with_claims(claims), empty_issuer)) == "invalid_issuer");

  claims = good_claims();
  claims["aud"] = json::array{"other", "client-1"};
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "ok");
  claims["aud"] = json::array{"other"};
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_audience");
  claims["aud"] = json::array{"client-1", 7};  // malformed array
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_audience");
  claims["aud"] = json::array{};
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_audience");
  claims["aud"] = "CLIENT-1";
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_audience");
  claims.erase("aud");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_audience");
}

TEST_CASE("check_claims: exp, nbf and iat with leeway") {
  const Jwt jwt = with_claims(good_claims());  // exp 1000, nbf 900, iat 900
  CHECK(code_of(check_claims(jwt, checks_at(999))) == "ok");
  CHECK(code_of(check_claims(jwt, checks_at(1000))) == "token_expired");  // exp is exclusive
  CHECK(code_of(check_claims(jwt, checks_at(1030, 30))) == "token_expired");
  CHECK(code_of(check_claims(jwt, checks_at(1029, 30))) == "ok");
  CHECK(code_of(check_claims(jwt, checks_at(1000, -5))) == "token_expired");  // negative leeway is 0

  CHECK(code_of(check_claims(jwt, checks_at(900))) == "ok");
  CHECK(code_of(check_claims(jwt, checks_at(899))) == "token_not_yet_valid");
  CHECK(code_of(check_claims(jwt, checks_at(870, 30))) == "ok");
  CHECK(code_of(check_claims(jwt, checks_at(869, 30))) == "token_not_yet_valid");

  auto claims = good_claims();
  claims.erase("nbf");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(899))) == "token_issued_in_future");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(870, 30))) == "ok");
  claims.erase("iat");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(0))) == "ok");  // both optional

  claims = good_claims();
  claims.erase("exp");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_claims");
  claims["exp"] = "1000";
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_claims");
  claims = good_claims();
  claims["nbf"] = true;
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_claims");
  claims = good_claims();
  claims["iat"] = nullptr;
  CHECK(code_of(check_claims(with_claims(claims), checks_at(950))) == "invalid_claims");

  // Fractional times round down; huge ones saturate instead of overflowing.
  claims = good_claims();
  claims["exp"] = 1000.9;
  CHECK(code_of(check_claims(with_claims(claims), checks_at(999))) == "ok");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(1000))) == "token_expired");
  claims["exp"] = 18446744073709551615ull;
  claims["nbf"] = -1e300;
  claims.erase("iat");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(INT64_MAX - 1, INT64_MAX))) == "ok");
  CHECK(code_of(check_claims(with_claims(claims), checks_at(INT64_MIN, INT64_MAX))) == "ok");
}

TEST_CASE("check_claims: nonce, and the order of the checks") {
  auto claims = good_claims();
  claims["nonce"] = "n-0S6_WzA2Mj";
  auto checks = checks_at(950);
  CHECK(code_of(check_claims(with_claims(claims), checks)) == "ok");  // not asked for: not checked
  checks.nonce = "n-0S6_WzA2Mj";
  CHECK(code_of(check_claims(with_claims(claims), checks)) == "ok");
  checks.nonce = "n-0S6_WzA2Mk";
  CHECK(code_of(check_claims(with_claims(claims), checks)) == "nonce_mismatch");
  checks.nonce = "";
  CHECK(code_of(check_claims(with_claims(claims), checks)) == "nonce_mismatch");
  claims.erase("nonce");
  CHECK(code_of(check_claims(with_claims(claims), checks)) == "nonce_mismatch");
  claims["nonce"] = 5;
  checks.nonce = "5";
  CHECK(code_of(check_claims(with_claims(claims), checks)) == "nonce_mismatch");

  // Everything wrong at once: the issuer is reported first, then the audience, then the times.
  json::object bad{{"iss", "x"}, {"aud", "y"}, {"exp", 1}, {"nbf", 5000}};
  CHECK(code_of(check_claims(with_claims(bad), checks)) == "invalid_issuer");
  bad["iss"] = "https://auth.example";
  CHECK(code_of(check_claims(with_claims(bad), checks)) == "invalid_audience");
  bad["aud"] = "client-1";
  CHECK(code_of(check_claims(with_claims(bad), checks)) == "token_expired");
  bad["exp"] = 5000;
  CHECK(code_of(check_claims(with_claims(bad), checks)) == "token_not_yet_valid");
  bad.erase("nbf");
  CHECK(code_of(check_claims(with_claims(bad), checks)) == "nonce_mismatch");
}
