#pragma once
// RSA public keys as JSON Web Keys (RFC 7517, RFC 7518 §6.3.1) and their thumbprints (RFC 7638).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/bytes.h"
#include "core/json.h"
#include "core/result.h"

namespace core {

// Modulus sizes the platform signs and verifies with: RS256 needs at least 2048 bits (RFC 7518 §3.3), and
// BearSSL, the verifier in both builds, handles at most 4096.
inline constexpr std::size_t kMinRsaBits = 2048;
inline constexpr std::size_t kMaxRsaBits = 4096;

struct RsaPublicKey {
  Bytes n, e;       // big-endian unsigned, no leading zero bytes
  std::string kid;  // empty: the key has none

  friend bool operator==(const RsaPublicKey&, const RsaPublicKey&) = default;
};

// Bits of a big-endian unsigned integer, leading zero bytes and bits ignored (0 for zero).
std::size_t bit_length(std::span<const std::uint8_t> big_endian);

// One RSA public JWK: `kty` "RSA", `n` and `e` base64url (no padding). `kid` is optional and must be a
// string when present. A key that announces another use or algorithm (`use` other than "sig", `alg` other
// than "RS256") is refused, as is a modulus outside kMinRsaBits..kMaxRsaBits or an exponent that is even,
// 1, or not shorter than the modulus. Leading zero bytes of `n` and `e` are dropped (RFC 7518 forbids
// them, some producers write them anyway). Private members (`d`, `p`, ...) are ignored. Errors:
// `invalid_jwk`.
Result<RsaPublicKey> parse_rsa_jwk(const json::object& jwk);

// The keys of a JWK Set (`{"keys": [...]}`, RFC 7517 §5) that can verify RS256: entries with another
// `kty`, `use` or `alg` are skipped, since a set may carry keys for other purposes. An RSA entry for RS256
// that is malformed fails the whole set, so a broken key is not silently ignored. Errors: `invalid_jwks`
// (not an object with a `keys` array, or an entry that is not an object), `invalid_jwk`.
Result<std::vector<RsaPublicKey>> parse_jwks(const json::object& jwks);

// {"kty":"RSA","use":"sig","alg":"RS256","kid":...,"n":...,"e":...}; `kid` is left out when empty.
json::object to_jwk(const RsaPublicKey& key);

// RFC 7638: base64url(SHA-256 of {"e":"...","kty":"RSA","n":"..."}), members in lexicographic order,
// no whitespace. 43 characters.
std::string jwk_thumbprint(const RsaPublicKey& key);

}  // namespace core
