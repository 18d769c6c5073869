#include "core/jwk.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/core/jose_vectors.h"

using namespace core;

namespace {

json::object rfc7638_jwk() {
  // RFC 7638 §3.1, with the members it lists.
  return {{"kty", "RSA"}, {"n", vectors::kRfc7638N}, {"e", "AQAB"}, {"alg", "RS256"}, {"kid", "2011-04-29"}};
}

std::string code_of(const Result<RsaPublicKey>& r) {
  return r ? "ok" : r.error().code;
}

}  // namespace

TEST_CASE("RFC 7638 §3.1: the example key's thumbprint") {
  auto key = parse_rsa_jwk(rfc7638_jwk());
  REQUIRE(key.ok());
  CHECK(key->kid == "2011-04-29");
  CHECK(key->n.size() == 256);
  CHECK(key->e == Bytes{0x01, 0x00, 0x01});
  CHECK(bit_length(key->n) == 2048);
  CHECK(jwk_thumbprint(*key) == vectors::kRfc7638Thumbprint);
  // The thumbprint covers e, kty and n only.
  key->kid = "another";
  CHECK(jwk_thumbprint(*key) == vectors::kRfc7638Thumbprint);
}

TEST_CASE("to_jwk writes the public JWK that parse_rsa_jwk reads back") {
  auto key = parse_rsa_jwk(rfc7638_jwk()).value();
  const json::object jwk = to_jwk(key);
  CHECK(json::serialize(jwk) == R"({"kty":"RSA","use":"sig","alg":"RS256","kid":"2011-04-29","n":")" +
                                    std::string(vectors::kRfc7638N) + R"(","e":"AQAB"})");
  CHECK(parse_rsa_jwk(jwk).value() == key);
  key.kid.clear();
  CHECK_FALSE(to_jwk(key).contains("kid"));
}

TEST_CASE("parse_rsa_jwk drops leading zero bytes of n and e") {
  auto jwk = rfc7638_jwk();
  Bytes n = base64url_decode(vectors::kRfc7638N).value();
  n.insert(n.begin(), 0);
  jwk["n"] = base64url_encode(n);
  jwk["e"] = "AAEAAQ";  // 00 01 00 01
  auto key = parse_rsa_jwk(jwk);
  REQUIRE(key.ok());
  CHECK(key->n.size() == 256);
  CHECK(key->e == Bytes{0x01, 0x00, 0x01});
  CHECK(jwk_thumbprint(*key) == vectors::kRfc7638Thumbprint);
}

TEST_CASE("parse_rsa_jwk refuses what is not an RS256 public key with invalid_jwk") {
  const auto with = [](const char* member, json::value value) {
    auto jwk = rfc7638_jwk();
    jwk[member] = std::move(value);
    return jwk;
  };
  const auto without = [](const char* member) {
    auto jwk = rfc7638_jwk();
    jwk.erase(member);
    return jwk;
  };
  CHECK(code_of(parse_rsa_jwk(without("kid"))) == "ok");
  CHECK(code_of(parse_rsa_jwk(without("alg"))) == "ok");
  CHECK(code_of(parse_rsa_jwk(with("use", "sig"))) == "ok");

  const json::object refused[] = {
      without("kty"),
      with("kty", "EC"),
      with("kty", "rsa"),
      without("n"),
      without("e"),
      with("n", 5),
      with("n", json::string(std::string(vectors::kRfc7638N) + "=")),  // padding
      with("n", "0vx7+goe"),                                           // standard base64
      with("e", ""),                                                   // empty exponent
      with("e", "AA"),                                                 // zero
      with("e", "AQ"),                                                 // 1
      with("e", "AQAC"),                                               // even
      with("n", json::string(vectors::kSmallKeyN)),                    // 1024 bits
      with("n", json::string(base64url_encode(Bytes(513, 0xff)))),     // 4104 bits
      with("use", "enc"),
      with("alg", "RS512"),
      with("alg", "PS256"),
      with("kid", 7),
  };
  for (const json::object& jwk : refused) {
    CAPTURE(json::serialize(jwk));
    CHECK(code_of(parse_rsa_jwk(jwk)) == "invalid_jwk");
  }
  CHECK(code_of(parse_rsa_jwk(with("n", json::string(base64url_encode(Bytes(512, 0xff)))))) ==
        "ok");  // 4096 bits
}

TEST_CASE("parse_jwks keeps the RS256 keys of a set and skips keys for other purposes") {
  json::object ec{{"kty", "EC"},
                  {"crv", "P-256"},
                  {"x", "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"},
                  {"y", "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}};
  json::object enc = rfc7638_jwk();
  enc["use"] = "enc";
  enc.erase("alg");
  json::object a2{{"kty", "RSA"}, {"n", vectors::kA2N}, {"e", "AQAB"}, {"kid", "2010-12-29"}};
  auto keys = parse_jwks({{"keys", json::array{ec, enc, rfc7638_jwk(), a2}}});
  REQUIRE(keys.ok());
  REQUIRE(keys->size() == 2);
  CHECK((*keys)[0].kid == "2011-04-29");
  CHECK((*keys)[1].kid == "2010-12-29");

  CHECK(parse_jwks({{"keys", json::array{}}}).value().empty());
  CHECK(parse_jwks({}).error().code == "invalid_jwks");
  CHECK(parse_jwks({{"keys", json::object{}}}).error().code == "invalid_jwks");
  CHECK(parse_jwks({{"keys", json::array{"x"}}}).error().code == "invalid_jwks");
  // A broken RSA signing key fails the set rather than vanishing from it.
  json::object broken = a2;
  broken["n"] = "!";
  CHECK(parse_jwks({{"keys", json::array{rfc7638_jwk(), broken}}}).error().code == "invalid_jwk");
}

TEST_CASE("bit_length") {
  CHECK(bit_length(Bytes{}) == 0);
  CHECK(bit_length(Bytes{0, 0}) == 0);
  CHECK(bit_length(Bytes{1}) == 1);
  CHECK(bit_length(Bytes{0, 0x80}) == 8);
  CHECK(bit_length(Bytes{0x01, 0x00, 0x01}) == 17);
  CHECK(bit_length(Bytes{0x7f, 0xff}) == 15);
}
