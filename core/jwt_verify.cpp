#include "core/jwt_verify.h"

#include <algorithm>
#include <string>

#include "core/rsa_verify.h"

namespace core {
namespace {

std::string_view algorithm_of(const JwtVerificationKey& key) {
  return std::holds_alternative<Hs256Secret>(key) ? "HS256" : "RS256";
}

}  // namespace

Result<Jwt> verify_jwt(std::string_view compact, const JwtVerification& verification) {
  // Decoded here for the algorithm checks, which come before any key is looked at; the verifier below
  // decodes the same bytes again (a few microseconds, against an RSA verification's hundreds).
  auto decoded = decode_jwt(compact);
  if (!decoded) return decoded.error();
  const std::string_view alg = jwt_alg(*decoded);
  const std::string_view key_alg = algorithm_of(verification.key);
  const auto& allowed = verification.algorithms;
  if (alg != key_alg ||
      (!allowed.empty() && std::find(allowed.begin(), allowed.end(), alg) == allowed.end())) {
    return make_error("unsupported_alg",
                      "the token's algorithm '" + std::string(alg) + "' is not accepted here");
  }

  auto jwt = std::holds_alternative<Hs256Secret>(verification.key)
                 ? verify_hs256(compact, std::get<Hs256Secret>(verification.key).secret)
                 : verify_rs256(compact, std::get<Rs256KeySet>(verification.key).keys);
  if (!jwt) {
    if (jwt.error().code == "unknown_kid") {
      return make_error("key_not_found", decoded->header.contains("kid")
                                             ? "no key of the set has the token's \"kid\""
                                             : "the token has no \"kid\" and the set does not hold exactly "
                                               "one RS256 key");
    }
    return jwt.error();
  }
  if (auto claims = check_token_claims(*jwt, verification.claims); !claims) return claims.error();
  return jwt;
}

}  // namespace core
