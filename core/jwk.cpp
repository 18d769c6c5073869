#include "core/jwk.h"

#include <cstddef>
#include <string>
#include <utility>

#include "core/crypto.h"

namespace core {
namespace {

Error invalid_jwk(std::string message) {
  return make_error("invalid_jwk", std::move(message));
}

Bytes strip_leading_zeros(Bytes value) {
  std::size_t zeros = 0;
  while (zeros < value.size() && value[zeros] == 0) ++zeros;
  value.erase(value.begin(), value.begin() + static_cast<std::ptrdiff_t>(zeros));
  return value;
}

// A required base64url member holding an unsigned big-endian integer, leading zero bytes dropped.
Result<Bytes> read_integer(const json::object& jwk, std::string_view name) {
  auto it = jwk.find(name);
  if (it == jwk.end() || !it->value().is_string()) {
    return invalid_jwk("JWK member '" + std::string(name) + "' must be a base64url string");
  }
  const json::string& text = it->value().get_string();
  auto bytes = base64url_decode(std::string_view(text.data(), text.size()));
  if (!bytes) return invalid_jwk("JWK member '" + std::string(name) + "' is not base64url without padding");
  return strip_leading_zeros(std::move(*bytes));
}

// Present and a string other than `expected` (a missing member is fine).
bool names_other(const json::object& jwk, std::string_view member, std::string_view expected) {
  auto it = jwk.find(member);
  if (it == jwk.end()) return false;
  const json::string* s = it->value().if_string();
  return !s || std::string_view(s->data(), s->size()) != expected;
}

}  // namespace

std::size_t bit_length(std::span<const std::uint8_t> big_endian) {
  std::size_t i = 0;
  while (i < big_endian.size() && big_endian[i] == 0) ++i;
  if (i == big_endian.size()) return 0;
  std::size_t bits = (big_endian.size() - i) * 8;
  for (std::uint8_t top = big_endian[i]; (top & 0x80) == 0; top = static_cast<std::uint8_t>(top << 1)) --bits;
  return bits;
}

Result<RsaPublicKey> parse_rsa_jwk(const json::object& jwk) {
  auto kty = jwk.find("kty");
  if (kty == jwk.end() || !kty->value().is_string() || kty->value().get_string() != "RSA") {
    return invalid_jwk("JWK must have \"kty\": \"RSA\"");
  }
  if (names_other(jwk, "use", "sig")) return invalid_jwk("JWK \"use\" must be \"sig\" when present");
  if (names_other(jwk, "alg", "RS256")) return invalid_jwk("JWK \"alg\" must be \"RS256\" when present");
  RsaPublicKey key;
  if (auto kid = jwk.find("kid"); kid != jwk.end()) {
    if (!kid->value().is_string()) return invalid_jwk("JWK \"kid\" must be a string");
    key.kid = std::string(kid->value().get_string());
  }
  auto n = read_integer(jwk, "n");
  if (!n) return n.error();
  auto e = read_integer(jwk, "e");
  if (!e) return e.error();
  key.n = std::move(*n);
  key.e = std::move(*e);
  const std::size_t bits = bit_length(key.n);
  if (bits < kMinRsaBits || bits > kMaxRsaBits) {
    return invalid_jwk("RSA modulus has " + std::to_string(bits) + " bits; 2048 to 4096 are supported");
  }
  if (key.e.empty() || (key.e.back() & 1) == 0 || (key.e.size() == 1 && key.e[0] == 1) ||
      key.e.size() >= key.n.size()) {
    return invalid_jwk("RSA exponent must be odd, greater than 1 and shorter than the modulus");
  }
  return key;
}

Result<std::vector<RsaPublicKey>> parse_jwks(const json::object& jwks) {
  auto keys = jwks.find("keys");
  if (keys == jwks.end() || !keys->value().is_array()) {
    return make_error("invalid_jwks", "JWK Set must be an object with a \"keys\" array");
  }
  std::vector<RsaPublicKey> out;
  for (const json::value& entry : keys->value().get_array()) {
    const json::object* jwk = entry.if_object();
    if (!jwk) return make_error("invalid_jwks", "every entry of \"keys\" must be a JSON object");
    if (names_other(*jwk, "kty", "RSA") || names_other(*jwk, "use", "sig") ||
        names_other(*jwk, "alg", "RS256")) {
      continue;
    }
    auto key = parse_rsa_jwk(*jwk);
    if (!key) return key.error();
    out.push_back(std::move(*key));
  }
  return out;
}

json::object to_jwk(const RsaPublicKey& key) {
  json::object jwk;
  jwk["kty"] = "RSA";
  jwk["use"] = "sig";
  jwk["alg"] = "RS256";
  if (!key.kid.empty()) jwk["kid"] = key.kid;
  jwk["n"] = base64url_encode(key.n);
  jwk["e"] = base64url_encode(key.e);
  return jwk;
}

std::string jwk_thumbprint(const RsaPublicKey& key) {
  // Written by hand rather than serialized, so the member order and the absence of whitespace are fixed
  // by this line, not by a JSON library. base64url text needs no JSON escaping.
  const std::string canonical =
      "{\"e\":\"" + base64url_encode(key.e) + "\",\"kty\":\"RSA\",\"n\":\"" + base64url_encode(key.n) + "\"}";
  return base64url_encode(sha256(canonical));
}

}  // namespace core
