#include "core/jwt_verify.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "tests/core/jose_vectors.h"

using namespace core;

namespace {

constexpr std::string_view kSecret = "an HS256 secret of at least 32 bytes!";

std::string code_of(const Result<Jwt>& r) {
  return r ? "ok" : r.error().code;
}
std::string code_of(const Status& s) {
  return s ? "ok" : s.error().code;
}

std::string b64(std::string_view text) {
  return base64url_encode(as_bytes(text));
}

RsaPublicKey a2_key(std::string kid = {}) {
  return RsaPublicKey{base64url_decode(vectors::kA2N).value(), {0x01, 0x00, 0x01}, std::move(kid)};
}
RsaPublicKey other_key(std::string kid = {}) {
  return RsaPublicKey{base64url_decode(vectors::kRfc7638N).value(), {0x01, 0x00, 0x01}, std::move(kid)};
}

// RFC 7515 A.2: header {"alg":"RS256"} (no kid), claims {"iss":"joe","exp":1300819380,...}.
std::string a2_compact() {
  return std::string(vectors::kA2SigningInput) + "." + std::string(vectors::kA2Signature);
}

json::object claims_until(std::int64_t exp) {
  return {{"iss", "https://auth.example"}, {"aud", "client-1"}, {"sub", "usr_1"}, {"exp", exp}};
}

JwtVerification with_secret(std::int64_t now = 1000) {
  JwtVerification v{Hs256Secret{std::string(kSecret)}, {}, {}};
  v.claims.now_s = now;
  return v;
}

// kA2KidToken: kid "2010-12-29", iss https://auth.example, aud client-1, exp 2000000000.
JwtVerification with_keys(std::vector<RsaPublicKey> keys, std::int64_t now = 1900000000) {
  JwtVerification v{Rs256KeySet{std::move(keys)}, {}, {}};
  v.claims.now_s = now;
  return v;
}

Jwt with_claims(json::object claims) {
  Jwt jwt;
  jwt.header = {{"alg", "HS256"}};
  jwt.claims = std::move(claims);
  return jwt;
}

}  // namespace

TEST_CASE("check_token_claims: issuer and audience are checked only when expected") {
  const Jwt jwt = with_claims(claims_until(1000));
  TokenClaimChecks checks{std::nullopt, {}, 999, 0};
  CHECK(code_of(check_token_claims(jwt, checks)) == "ok");
  // Nothing expected: a token without iss or aud passes too (as in jose).
  CHECK(code_of(check_token_claims(with_claims({{"exp", 1000}}), checks)) == "ok");

  checks.issuer = "https://auth.example";
  CHECK(code_of(check_token_claims(jwt, checks)) == "ok");
  checks.issuer = "https://auth.example/";
  CHECK(code_of(check_token_claims(jwt, checks)) == "invalid_issuer");
  checks.issuer = "";  // set but empty: only an empty `iss` matches
  CHECK(code_of(check_token_claims(jwt, checks)) == "invalid_issuer");
  CHECK(code_of(check_token_claims(with_claims({{"iss", ""}, {"exp", 1000}}), checks)) == "ok");
  checks.issuer = "https://auth.example";
  CHECK(code_of(check_token_claims(with_claims({{"exp", 1000}}), checks)) == "invalid_issuer");
  CHECK(code_of(check_token_claims(with_claims({{"iss", 7}, {"exp", 1000}}), checks)) == "invalid_issuer");

  checks.audiences = {"other", "client-1"};  // any one of them
  CHECK(code_of(check_token_claims(jwt, checks)) == "ok");
  checks.audiences = {"other"};
  CHECK(code_of(check_token_claims(jwt, checks)) == "invalid_audience");
  auto claims = claims_until(1000);
  claims["aud"] = json::array{"x", "other"};
  CHECK(code_of(check_token_claims(with_claims(claims), checks)) == "ok");
  claims["aud"] = json::array{"other", 7};  // malformed array
  CHECK(code_of(check_token_claims(with_claims(claims), checks)) == "invalid_audience");
  claims.erase("aud");
  CHECK(code_of(check_token_claims(with_claims(claims), checks)) == "invalid_audience");
  // The issuer is checked before the audience.
  checks.issuer = "someone else";
  CHECK(code_of(check_token_claims(with_claims(claims), checks)) == "invalid_issuer");
}

TEST_CASE("check_token_claims: exp required, nbf with leeway, iat only type-checked") {
  json::object claims{{"exp", 1000}, {"nbf", 900}, {"iat", 5000}};
  const Jwt jwt = with_claims(claims);
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 999, 0})) == "ok");  // iat in the future is fine
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 1000, 0})) == "token_expired");
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 1029, 30})) == "ok");
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 1030, 30})) == "token_expired");
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 899, 0})) == "token_not_yet_valid");
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 870, 30})) == "ok");
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 869, 30})) == "token_not_yet_valid");
  CHECK(code_of(check_token_claims(jwt, {std::nullopt, {}, 1000, -5})) == "token_expired");

  claims.erase("exp");
  CHECK(code_of(check_token_claims(with_claims(claims), {std::nullopt, {}, 950, 0})) == "invalid_claims");
  claims["exp"] = 1000;
  claims["iat"] = "900";
  CHECK(code_of(check_token_claims(with_claims(claims), {std::nullopt, {}, 950, 0})) == "invalid_claims");
}

TEST_CASE("verify_jwt with an HS256 secret") {
  const std::string token = sign_hs256(claims_until(2000), kSecret);
  auto verified = verify_jwt(token, with_secret());
  REQUIRE(verified.ok());
  CHECK(verified->claims.at("sub") == "usr_1");

  JwtVerification wrong = with_secret();
  std::get<Hs256Secret>(wrong.key).secret = "another secret of at least 32 bytes.";
  CHECK(code_of(verify_jwt(token, wrong)) == "invalid_signature");
  CHECK(code_of(verify_jwt(token, with_secret(2000))) == "token_expired");
  CHECK(code_of(verify_jwt("not.a.token", with_secret())) == "invalid_jwt");

  // A kid is carried, never needed.
  CHECK(code_of(verify_jwt(sign_hs256(claims_until(2000), kSecret, "k1"), with_secret())) == "ok");

  JwtVerification checked = with_secret();
  checked.claims.issuer = "https://auth.example";
  checked.claims.audiences = {"client-1"};
  CHECK(code_of(verify_jwt(token, checked)) == "ok");
  checked.claims.audiences = {"client-2"};
  CHECK(code_of(verify_jwt(token, checked)) == "invalid_audience");
}

TEST_CASE("verify_jwt: the algorithm is the key's and one of the accepted ones, checked before the key") {
  const std::string hs = sign_hs256(claims_until(2000), kSecret);
  // An RS256 token against a secret, an HS256 token against a key set, alg none: refused by their alg.
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, with_secret())) == "unsupported_alg");
  CHECK(code_of(verify_jwt(hs, with_keys({a2_key("2010-12-29")}))) == "unsupported_alg");
  const std::string none = b64(R"({"alg":"none"})") + "." + b64(R"({"exp":2000})") + ".";
  CHECK(code_of(verify_jwt(none, with_secret())) == "unsupported_alg");

  JwtVerification only_rs = with_secret();
  only_rs.algorithms = {"RS256"};
  CHECK(code_of(verify_jwt(hs, only_rs)) == "unsupported_alg");
  only_rs.algorithms = {"RS256", "HS256"};
  CHECK(code_of(verify_jwt(hs, only_rs)) == "ok");
  // Before the signature: a tampered HS256 token that is not accepted is unsupported_alg.
  only_rs.algorithms = {"RS256"};
  CHECK(code_of(verify_jwt(hs.substr(0, hs.size() - 2) + "AA", only_rs)) == "unsupported_alg");
}

TEST_CASE("verify_jwt with a key set: the key by kid, or the only key") {
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, with_keys({other_key("a"), a2_key("2010-12-29")}))) == "ok");
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, with_keys({a2_key("other")}))) == "key_not_found");
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, with_keys({}))) == "key_not_found");
  // The right kid on the wrong key material.
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, with_keys({other_key("2010-12-29")}))) ==
        "invalid_signature");

  // No kid in the token: the only key, else no guess.
  JwtVerification at_2011 = with_keys({a2_key()}, 1300819379);
  CHECK(code_of(verify_jwt(a2_compact(), at_2011)) == "ok");
  at_2011 = with_keys({a2_key(), other_key()}, 1300819379);
  CHECK(code_of(verify_jwt(a2_compact(), at_2011)) == "key_not_found");
  CHECK(verify_jwt(a2_compact(), at_2011).error().message.find("no \"kid\"") != std::string::npos);
  CHECK(code_of(verify_jwt(a2_compact(), with_keys({a2_key()}, 1300819380))) == "token_expired");

  const std::string bad_kid = b64(R"({"alg":"RS256","kid":7})") + "." + b64(R"({"exp":1})") + "." + b64("s");
  CHECK(code_of(verify_jwt(bad_kid, with_keys({a2_key()}))) == "invalid_jwt");

  JwtVerification claims = with_keys({a2_key("2010-12-29")});
  claims.claims.issuer = "https://auth.example";
  claims.claims.audiences = {"client-0", "client-1"};
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, claims)) == "ok");
  claims.claims.issuer = "https://evil.example";
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, claims)) == "invalid_issuer");
  claims = with_keys({a2_key("2010-12-29")}, 2000000000 + 30);
  claims.claims.leeway_s = 31;
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, claims)) == "ok");
  claims.claims.leeway_s = 30;
  CHECK(code_of(verify_jwt(vectors::kA2KidToken, claims)) == "token_expired");
}
