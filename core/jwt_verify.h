#pragma once
// Verifying a JWT in one call, as an application does with a token it received (the @platform/core
// package's verifyJwt, checked against jose): the key, the algorithm, the signature and the registered
// claims. The building blocks (verify_hs256, verify_rs256, check_token_claims) stay usable on their own.

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/jwk.h"
#include "core/jwt.h"
#include "core/result.h"

namespace core {

// A shared HS256 secret, used as given (its bytes).
struct Hs256Secret {
  std::string secret;
};

// The RS256 keys of a JWK Set (parse_jwks).
struct Rs256KeySet {
  std::vector<RsaPublicKey> keys;
};

// What a token is verified with. Each kind of key verifies exactly one algorithm, so a token can never pick
// how it is checked (an HS256 token is never checked against an RSA key's bytes).
using JwtVerificationKey = std::variant<Hs256Secret, Rs256KeySet>;

struct JwtVerification {
  JwtVerificationKey key;
  // The algorithms the caller accepts; empty accepts the key's. A name the key cannot verify never matches.
  std::vector<std::string> algorithms;
  TokenClaimChecks claims;
};

// Checks, in this order, each failure with its own code:
// - `invalid_jwt`: not a compact JWS decode_jwt accepts (or, with a key set, a `kid` that is not a string);
// - `unsupported_alg`: the header's `alg` is not the key's algorithm (HS256 for a secret, RS256 for a key
//   set) or not in `algorithms`;
// - `key_not_found` (key set only): no key has the token's `kid`, or the token has none and the set does not
//   hold exactly one RS256 key;
// - `invalid_signature`;
// - then check_token_claims: `invalid_issuer`, `invalid_audience`, `invalid_claims`, `token_expired`,
//   `token_not_yet_valid`.
Result<Jwt> verify_jwt(std::string_view compact, const JwtVerification& verification);

}  // namespace core
