// Credential public keys as COSE_Key maps (core/auth/webauthn/cose_key.h): ES256 on P-256 and RS256,
// nothing else.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/auth/webauthn/cose_key.h"
#include "core/bytes.h"
#include "tests/core/webauthn_vectors.h"

using namespace core;
using namespace core::webauthn;
namespace v = webauthn_vectors;

namespace {

Bytes hex(std::string_view text) {
  return hex_decode(text).value();
}

CborValue decoded(std::string_view cose_hex) {
  return decode_cbor(hex(cose_hex)).value();
}

CborValue integer(std::int64_t i) {
  CborValue v;
  v.type = i < 0 ? CborType::negative_integer : CborType::unsigned_integer;
  v.argument = i < 0 ? static_cast<std::uint64_t>(-1 - i) : static_cast<std::uint64_t>(i);
  return v;
}

CborValue byte_string(Bytes b) {
  CborValue v;
  v.type = CborType::byte_string;
  v.bytes = std::move(b);
  return v;
}

// `map` with `label` set to `value` (replaced or appended).
CborValue with(CborValue map, std::int64_t label, CborValue value) {
  for (CborEntry& e : map.entries) {
    if (e.key.as_int64() == label) {
      e.value = std::move(value);
      return map;
    }
  }
  map.entries.push_back({integer(label), std::move(value)});
  return map;
}

CborValue without(CborValue map, std::int64_t label) {
  std::erase_if(map.entries, [&](const CborEntry& e) { return e.key.as_int64() == label; });
  return map;
}

std::string code_of(const Result<CosePublicKey>& r) {
  return r ? "ok" : r.error().code;
}

}  // namespace

TEST_CASE("an ES256 EC2 key on P-256 is read into its coordinates") {
  const CborValue map = decoded(v::kEs256CoseHex);
  auto key = parse_cose_key(hex(v::kEs256CoseHex));
  REQUIRE(key.ok());
  CHECK(key->alg == CoseAlgorithm::es256);
  const auto& point = std::get<P256PublicKey>(key->key);
  CHECK(Bytes(point.x.begin(), point.x.end()) == map.find(-2)->bytes);
  CHECK(Bytes(point.y.begin(), point.y.end()) == map.find(-3)->bytes);
  // Labels nobody asked for (kid, key_ops) are ignored.
  CHECK(code_of(parse_cose_key(with(map, 2, byte_string({1, 2, 3})))) == "ok");
}

TEST_CASE("an RS256 RSA key is read into n and e") {
  auto key = parse_cose_key(hex(v::kRs256CoseHex));
  REQUIRE(key.ok());
  CHECK(key->alg == CoseAlgorithm::rs256);
  const auto& rsa = std::get<RsaPublicKey>(key->key);
  CHECK(bit_length(rsa.n) == 2048);
  CHECK(rsa.e == Bytes{0x01, 0x00, 0x01});
  CHECK(rsa.kid.empty());
  // Leading zero bytes are dropped, so the key compares equal to its minimal form.
  const CborValue map = decoded(v::kRs256CoseHex);
  Bytes padded_e{0, 0, 1, 0, 1};
  CHECK(parse_cose_key(with(map, -2, byte_string(padded_e))).value() == *key);
}

TEST_CASE("other key types, algorithms and curves are unsupported") {
  const CborValue ec = decoded(v::kEs256CoseHex);
  const CborValue rsa = decoded(v::kRs256CoseHex);
  auto eddsa = parse_cose_key(with(with(ec, 1, integer(1)), 3, integer(-8)));  // OKP / EdDSA
  CHECK(code_of(eddsa) == "unsupported_key");
  CHECK(eddsa.error().message ==
        "the credential uses COSE algorithm -8; only ES256 (-7) and RS256 (-257) are supported");
  CHECK(code_of(parse_cose_key(with(ec, 3, integer(-35)))) == "unsupported_key");   // ES384
  CHECK(code_of(parse_cose_key(with(rsa, 3, integer(-37)))) == "unsupported_key");  // PS256
  CHECK(code_of(parse_cose_key(with(ec, 1, integer(1)))) == "unsupported_key");     // OKP with ES256
  CHECK(code_of(parse_cose_key(with(ec, 1, integer(3)))) == "unsupported_key");     // RSA with ES256
  CHECK(code_of(parse_cose_key(with(rsa, 1, integer(2)))) == "unsupported_key");    // EC2 with RS256
  auto p384 = parse_cose_key(with(ec, -1, integer(2)));
  CHECK(code_of(p384) == "unsupported_key");
  CHECK(p384.error().message == "only the P-256 curve is supported for EC2 keys");
}

TEST_CASE("malformed keys are invalid") {
  const CborValue ec = decoded(v::kEs256CoseHex);
  const CborValue rsa = decoded(v::kRs256CoseHex);
  CHECK(code_of(parse_cose_key(integer(2))) == "invalid_key");
  auto no_alg = parse_cose_key(without(ec, 3));
  CHECK(code_of(no_alg) == "invalid_key");
  CHECK(no_alg.error().message == "the credential public key has no \"alg\" parameter");
  CHECK(code_of(parse_cose_key(without(ec, 1))) == "invalid_key");
  CHECK(code_of(parse_cose_key(without(ec, -1))) == "invalid_key");
  CHECK(code_of(parse_cose_key(without(ec, -3))) == "invalid_key");
  CHECK(code_of(parse_cose_key(with(ec, 3, byte_string({0xf9})))) == "invalid_key");
  CHECK(code_of(parse_cose_key(with(ec, -2, integer(5)))) == "invalid_key");
  auto short_x = parse_cose_key(with(ec, -2, byte_string(Bytes(31, 1))));
  CHECK(code_of(short_x) == "invalid_key");
  CHECK(short_x.error().message == "the credential public key's \"x\" is not 32 bytes long");
  // A private key is not a public key.
  CHECK(code_of(parse_cose_key(with(ec, -4, byte_string(Bytes(32, 7))))) == "invalid_key");
  CHECK(code_of(parse_cose_key(with(rsa, -3, byte_string(Bytes(256, 7))))) == "invalid_key");
}

TEST_CASE("an EC2 point must lie on P-256") {
  const CborValue ec = decoded(v::kEs256CoseHex);
  Bytes y = ec.find(-3)->bytes;
  REQUIRE(y.size() == 32);
  y[31] ^= 0x01;
  auto off_curve = parse_cose_key(with(ec, -3, byte_string(y)));
  CHECK(code_of(off_curve) == "invalid_key");
  CHECK(off_curve.error().message == "the credential public key is not a point on P-256");
  CHECK(code_of(parse_cose_key(
            with(with(ec, -2, byte_string(Bytes(32, 0))), -3, byte_string(Bytes(32, 0))))) == "invalid_key");
  // x = p (the field prime) is not a coordinate.
  const Bytes p = hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
  CHECK(code_of(parse_cose_key(with(ec, -2, byte_string(p)))) == "invalid_key");
}

TEST_CASE("RSA keys: 2048 to 4096 bits, a sensible exponent") {
  const CborValue rsa = decoded(v::kRs256CoseHex);
  const Bytes n = rsa.find(-1)->bytes;
  auto small = parse_cose_key(with(rsa, -1, byte_string(Bytes(n.begin(), n.begin() + 128))));
  CHECK(code_of(small) == "invalid_key");
  CHECK(small.error().message == "the credential's RSA modulus has 1024 bits; 2048 to 4096 are supported");
  CHECK(code_of(parse_cose_key(with(rsa, -1, byte_string(Bytes(513, 0xff))))) == "invalid_key");
  CHECK(code_of(parse_cose_key(with(rsa, -2, byte_string({1})))) == "invalid_key");
  CHECK(code_of(parse_cose_key(with(rsa, -2, byte_string({1, 0, 0})))) == "invalid_key");
  CHECK(code_of(parse_cose_key(with(rsa, -2, byte_string({})))) == "invalid_key");
  CHECK(code_of(parse_cose_key(with(rsa, -2, byte_string(n)))) == "invalid_key");
}

TEST_CASE("the encoded form must be exactly one CBOR item") {
  Bytes trailing = hex(v::kEs256CoseHex);
  trailing.push_back(0x00);
  CHECK(code_of(parse_cose_key(trailing)) == "invalid_cbor");
  Bytes truncated = hex(v::kEs256CoseHex);
  truncated.pop_back();
  CHECK(code_of(parse_cose_key(truncated)) == "invalid_cbor");
}
