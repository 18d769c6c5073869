#include "core/auth/webauthn/cose_key.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include "core/auth/webauthn/signature.h"

namespace core::webauthn {
namespace {

// COSE_Key labels (RFC 9052 §7.1, RFC 9053 §7.1.1, RFC 8230 §4).
constexpr std::int64_t kLabelKty = 1;
constexpr std::int64_t kLabelAlg = 3;
constexpr std::int64_t kEc2Crv = -1, kEc2X = -2, kEc2Y = -3, kEc2D = -4;
constexpr std::int64_t kRsaN = -1, kRsaE = -2, kRsaD = -3;
constexpr std::int64_t kKtyEc2 = 2, kKtyRsa = 3;
constexpr std::int64_t kCrvP256 = 1;

Error invalid_key(std::string message) {
  return make_error("invalid_key", std::move(message));
}
Error unsupported_key(std::string message) {
  return make_error("unsupported_key", std::move(message));
}

Result<std::int64_t> require_int(const CborValue& map, std::int64_t label, std::string_view name) {
  const CborValue* v = map.find(label);
  if (!v) return invalid_key("the credential public key has no \"" + std::string(name) + "\" parameter");
  auto i = v->as_int64();
  if (!i) return invalid_key("the credential public key's \"" + std::string(name) + "\" is not an integer");
  return *i;
}

Result<const Bytes*> require_bytes(const CborValue& map, std::int64_t label, std::string_view name) {
  const CborValue* v = map.find(label);
  if (!v) return invalid_key("the credential public key has no \"" + std::string(name) + "\" parameter");
  if (v->type != CborType::byte_string) {
    return invalid_key("the credential public key's \"" + std::string(name) + "\" is not a byte string");
  }
  return &v->bytes;
}

Result<P256PublicKey> parse_p256(const CborValue& map) {
  auto crv = require_int(map, kEc2Crv, "crv");
  if (!crv) return crv.error();
  if (*crv != kCrvP256) return unsupported_key("only the P-256 curve is supported for EC2 keys");
  if (map.find(kEc2D)) return invalid_key("the credential public key contains a private key");
  P256PublicKey point;
  for (auto [label, name, out] : {std::tuple{kEc2X, "x", &point.x}, std::tuple{kEc2Y, "y", &point.y}}) {
    auto coordinate = require_bytes(map, label, name);
    if (!coordinate) return coordinate.error();
    if ((*coordinate)->size() != 32) {
      return invalid_key("the credential public key's \"" + std::string(name) + "\" is not 32 bytes long");
    }
    std::copy((*coordinate)->begin(), (*coordinate)->end(), out->begin());
  }
  if (!on_p256_curve(point)) return invalid_key("the credential public key is not a point on P-256");
  return point;
}

Bytes strip_leading_zeros(const Bytes& value) {
  auto first = std::find_if(value.begin(), value.end(), [](std::uint8_t b) { return b != 0; });
  return Bytes(first, value.end());
}

Result<RsaPublicKey> parse_rsa(const CborValue& map) {
  if (map.find(kRsaD)) return invalid_key("the credential public key contains a private key");
  auto n = require_bytes(map, kRsaN, "n");
  if (!n) return n.error();
  auto e = require_bytes(map, kRsaE, "e");
  if (!e) return e.error();
  RsaPublicKey key{strip_leading_zeros(**n), strip_leading_zeros(**e), {}};
  const std::size_t bits = bit_length(key.n);
  if (bits < kMinRsaBits || bits > kMaxRsaBits) {
    return invalid_key("the credential's RSA modulus has " + std::to_string(bits) +
                       " bits; 2048 to 4096 are supported");
  }
  if (key.e.empty() || (key.e.back() & 1) == 0 || (key.e.size() == 1 && key.e[0] == 1) ||
      key.e.size() >= key.n.size()) {
    return invalid_key(
        "the credential's RSA exponent must be odd, greater than 1 and shorter than the modulus");
  }
  return key;
}

}  // namespace

Result<CosePublicKey> parse_cose_key(const CborValue& cose_key) {
  if (cose_key.type != CborType::map) return invalid_key("the credential public key is not a CBOR map");
  auto kty = require_int(cose_key, kLabelKty, "kty");
  if (!kty) return kty.error();
  auto alg = require_int(cose_key, kLabelAlg, "alg");
  if (!alg) return alg.error();
  if (*alg != static_cast<std::int64_t>(CoseAlgorithm::es256) &&
      *alg != static_cast<std::int64_t>(CoseAlgorithm::rs256)) {
    return unsupported_key("the credential uses COSE algorithm " + std::to_string(*alg) +
                           "; only ES256 (-7) and RS256 (-257) are supported");
  }
  if (*kty != kKtyEc2 && *kty != kKtyRsa) {
    return unsupported_key("the credential public key has key type " + std::to_string(*kty) +
                           "; only EC2 (2) and RSA (3) are supported");
  }
  const auto algorithm = static_cast<CoseAlgorithm>(*alg);
  if ((algorithm == CoseAlgorithm::es256) != (*kty == kKtyEc2)) {
    return unsupported_key("the credential public key's type does not match its algorithm");
  }
  if (algorithm == CoseAlgorithm::es256) {
    auto point = parse_p256(cose_key);
    if (!point) return point.error();
    return CosePublicKey{algorithm, *point};
  }
  auto rsa = parse_rsa(cose_key);
  if (!rsa) return rsa.error();
  return CosePublicKey{algorithm, std::move(*rsa)};
}

Result<CosePublicKey> parse_cose_key(std::span<const std::uint8_t> encoded) {
  auto value = decode_cbor(encoded);
  if (!value) return value.error();
  return parse_cose_key(*value);
}

}  // namespace core::webauthn
