#pragma once
// Credential public keys as COSE_Key maps (RFC 9052 §7, RFC 9053, RFC 8230), the form WebAuthn stores them
// in. Two algorithms are supported, the ones every platform authenticator offers: ES256 (ECDSA on P-256
// with SHA-256) and RS256 (RSASSA-PKCS1-v1_5 with SHA-256, Windows Hello's).

#include <array>
#include <cstdint>
#include <span>
#include <variant>

#include "core/auth/webauthn/cbor.h"
#include "core/jwk.h"
#include "core/result.h"

namespace core::webauthn {

// COSE algorithm identifiers (IANA "COSE Algorithms").
enum class CoseAlgorithm : std::int64_t { es256 = -7, rs256 = -257 };

// A point on P-256, its affine coordinates big-endian.
struct P256PublicKey {
  std::array<std::uint8_t, 32> x{}, y{};
  friend bool operator==(const P256PublicKey&, const P256PublicKey&) = default;
};

struct CosePublicKey {
  CoseAlgorithm alg = CoseAlgorithm::es256;
  // P256PublicKey for es256, RsaPublicKey (n and e minimal, `kid` empty) for rs256.
  std::variant<P256PublicKey, RsaPublicKey> key;
  friend bool operator==(const CosePublicKey&, const CosePublicKey&) = default;
};

// Reads a COSE_Key map. Accepted: kty EC2 (2) with alg -7, crv P-256 (1) and 32-byte x and y that lie on the
// curve; kty RSA (3) with alg -257 and n of kMinRsaBits..kMaxRsaBits bits and e odd, greater than 1 and
// shorter than n (leading zero bytes dropped). `alg` is required (WebAuthn §6.5.1.1). Other labels
// (kid, key_ops, ...) are ignored, but a private part (EC2 `d`, RSA `d`) is refused.
// Errors: `unsupported_key` (another kty, alg or crv, or a kty/alg pair that does not match), `invalid_key`
// (not a map, a required parameter missing or of the wrong type or size, a point not on the curve, an RSA
// key of the wrong size).
Result<CosePublicKey> parse_cose_key(const CborValue& cose_key);

// The same from the encoded key, which must be exactly one CBOR item. Errors: `invalid_cbor`, and those of
// parse_cose_key.
Result<CosePublicKey> parse_cose_key(std::span<const std::uint8_t> encoded);

}  // namespace core::webauthn
