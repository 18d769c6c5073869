#include "core/rsa_verify.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/core/jose_vectors.h"

using namespace core;

namespace {

RsaPublicKey key_from(std::string_view n, std::string kid = {}) {
  return RsaPublicKey{base64url_decode(n).value(), {0x01, 0x00, 0x01}, std::move(kid)};
}

RsaPublicKey a2_key(std::string kid = {}) {
  return key_from(vectors::kA2N, std::move(kid));
}

std::string a2_compact() {
  return std::string(vectors::kA2SigningInput) + "." + std::string(vectors::kA2Signature);
}

std::string code_of(const Result<Jwt>& r) {
  return r ? "ok" : r.error().code;
}

std::string b64(std::string_view text) {
  return base64url_encode(as_bytes(text));
}

}  // namespace

TEST_CASE("RFC 7515 A.2: rs256_verify accepts the example signature and nothing near it") {
  const Bytes signature = base64url_decode(vectors::kA2Signature).value();
  REQUIRE(signature.size() == 256);
  CHECK(rs256_verify(a2_key(), vectors::kA2SigningInput, signature));

  // Another signing input (one character of the payload changed).
  std::string input(vectors::kA2SigningInput);
  input.back() = input.back() == 'Q' ? 'R' : 'Q';
  CHECK_FALSE(rs256_verify(a2_key(), input, signature));
  CHECK_FALSE(rs256_verify(a2_key(), "", signature));
  // Any single flipped bit of the signature.
  for (std::size_t i : {std::size_t{0}, std::size_t{100}, std::size_t{255}}) {
    Bytes flipped = signature;
    flipped[i] ^= 0x01;
    CHECK_FALSE(rs256_verify(a2_key(), vectors::kA2SigningInput, flipped));
  }
  // Lengths other than the modulus length.
  CHECK_FALSE(rs256_verify(a2_key(), vectors::kA2SigningInput, std::span(signature).first(255)));
  Bytes longer = signature;
  longer.insert(longer.begin(), 0);
  CHECK_FALSE(rs256_verify(a2_key(), vectors::kA2SigningInput, longer));
  CHECK_FALSE(rs256_verify(a2_key(), vectors::kA2SigningInput, Bytes{}));
  // Another key (RFC 7638's), another exponent.
  CHECK_FALSE(rs256_verify(key_from(vectors::kRfc7638N), vectors::kA2SigningInput, signature));
  RsaPublicKey e3 = a2_key();
  e3.e = {3};
  CHECK_FALSE(rs256_verify(e3, vectors::kA2SigningInput, signature));
}

TEST_CASE("rs256_verify refuses keys outside 2048..4096 bits, even with a genuine signature") {
  const std::string token(vectors::kSmallKeyToken);
  const std::size_t dot = token.rfind('.');
  const Bytes signature = base64url_decode(std::string_view(token).substr(dot + 1)).value();
  const RsaPublicKey small = key_from(vectors::kSmallKeyN);
  REQUIRE(bit_length(small.n) == 1024);
  REQUIRE(signature.size() == 128);
  CHECK_FALSE(rs256_verify(small, std::string_view(token).substr(0, dot), signature));
  CHECK(code_of(verify_rs256(token, std::vector{small})) == "invalid_signature");

  RsaPublicKey huge{Bytes(513, 0xff), {0x01, 0x00, 0x01}, {}};
  CHECK_FALSE(rs256_verify(huge, "x", Bytes(513, 0x01)));
  RsaPublicKey no_exponent = a2_key();
  no_exponent.e.clear();
  CHECK_FALSE(
      rs256_verify(no_exponent, vectors::kA2SigningInput, base64url_decode(vectors::kA2Signature).value()));
}

TEST_CASE("verify_rs256: RFC 7515 A.2 with a single key and no kid") {
  auto jwt = verify_rs256(a2_compact(), std::vector{a2_key()});
  REQUIRE(jwt.ok());
  CHECK(json::serialize(jwt->header) == R"({"alg":"RS256"})");
  CHECK(jwt->claims.at("iss") == "joe");
  CHECK(jwt->claims.at("exp") == 1300819380);
  // Without a kid, one key is used, several are not guessed between, none is unknown.
  CHECK(code_of(verify_rs256(a2_compact(), std::vector{a2_key(), key_from(vectors::kRfc7638N)})) ==
        "unknown_kid");
  CHECK(code_of(verify_rs256(a2_compact(), std::vector<RsaPublicKey>{})) == "unknown_kid");
  CHECK(code_of(verify_rs256(a2_compact(), std::vector{key_from(vectors::kRfc7638N)})) ==
        "invalid_signature");
}

TEST_CASE("verify_rs256 picks the key by kid (rotation: two keys)") {
  const std::vector keys{key_from(vectors::kRfc7638N, "2011-04-29"), a2_key("2010-12-29")};
  auto jwt = verify_rs256(vectors::kA2KidToken, keys);
  REQUIRE(jwt.ok());
  CHECK(jwt->header.at("kid") == "2010-12-29");
  CHECK(jwt->claims.at("aud") == "client-1");

  CHECK(code_of(verify_rs256(vectors::kA2KidToken, std::vector{a2_key("2011-04-29")})) == "unknown_kid");
  // A kid-less key is never chosen for a token that names a kid, even as the only key.
  CHECK(code_of(verify_rs256(vectors::kA2KidToken, std::vector{a2_key()})) == "unknown_kid");
  // The right kid on the wrong key.
  CHECK(
      code_of(verify_rs256(vectors::kA2KidToken, std::vector{key_from(vectors::kRfc7638N, "2010-12-29")})) ==
      "invalid_signature");
  // A tampered payload under the right key.
  std::string tampered(vectors::kA2KidToken);
  const std::size_t dot1 = tampered.find('.'), dot2 = tampered.rfind('.');
  tampered.replace(dot1 + 1, dot2 - dot1 - 1,
                   b64(R"({"iss":"https://auth.example","aud":"client-1","sub":"usr_2","exp":2000000000})"));
  CHECK(code_of(verify_rs256(tampered, keys)) == "invalid_signature");
}

TEST_CASE("verify_rs256 accepts only alg RS256 (no none, no HS256 with the public key as secret)") {
  const std::vector keys{a2_key()};
  const std::string payload = b64(R"({"iss":"joe"})");
  CHECK(code_of(verify_rs256(b64(R"({"alg":"none"})") + "." + payload + ".", keys)) == "unsupported_alg");
  // Algorithm confusion: an HS256 token whose HMAC key is the RSA public key's bytes.
  const std::string confused = sign_hs256(json::object{{"iss", "joe"}}, to_string(keys[0].n)) + "";
  CHECK(code_of(verify_rs256(confused, keys)) == "unsupported_alg");
  CHECK(code_of(verify_rs256(std::string(vectors::kA1Compact), keys)) == "unsupported_alg");
  for (const char* alg : {"rs256", "RS384", "PS256", "ES256", "RS256 "}) {
    CAPTURE(alg);
    CHECK(code_of(verify_rs256(b64(std::string(R"({"alg":")") + alg + "\"}") + "." + payload + "." +
                                   std::string(vectors::kA2Signature),
                               keys)) == "unsupported_alg");
  }
  // Malformed input, and a kid that is not a string.
  CHECK(code_of(verify_rs256("a.b", keys)) == "invalid_jwt");
  CHECK(code_of(verify_rs256(b64(R"({"alg":"RS256","kid":5})") + "." + payload + ".", keys)) ==
        "invalid_jwt");
}
