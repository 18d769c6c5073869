#pragma once
// Signs id_tokens and publishes the verification keys (document 1, "Authentication" §6-7).
//   RS256: OAUTH_RSA_PRIVATE_KEY holds a PEM RSA key; kid = its RFC 7638 thumbprint. During a rotation
//          OAUTH_RSA_PRIVATE_KEY_PREVIOUS holds the former key: it signs nothing but stays in the JWKS (and
//          verifies id_token_hint), so tokens signed before the rotation still verify by kid.
//   HS256: without an RSA key, with OAUTH_ID_TOKEN_SECRET (or, when that is unset too, a secret derived from
//          the deployment's secret key); the JWKS is empty and discovery has no jwks_uri.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/jwt.h"
#include "core/result.h"
#include "core/sealed.h"
#include "native/crypto/rsa_key.h"

namespace edge::oauth {

class IdTokenSigner {
 public:
  // Errors: `invalid_key` for a PEM that is not an RSA private key of at least 2048 bits (the message
  // names the variable), `invalid_config` for a previous key without a current one.
  static core::Result<IdTokenSigner> create(const std::string& rsa_pem, const std::string& previous_rsa_pem,
                                            const std::string& hs256_secret,
                                            const core::SecretKey& deployment_key);

  bool rs256() const { return current_.has_value(); }
  std::string_view alg() const { return rs256() ? "RS256" : "HS256"; }
  // A compact JWS of `claims` with header {alg, typ: JWT, kid (RS256)}.
  std::string sign(const core::json::object& claims) const;
  // {"keys": [current, previous]} in RS256 mode, {"keys": []} in HS256 mode.
  core::json::object jwks() const;
  // Verifies a token this signer issued (current or previous key). Claims are not checked.
  core::Result<core::Jwt> verify(std::string_view compact) const;

 private:
  std::optional<native::RsaSigningKey> current_, previous_;
  std::string hs256_secret_;
};

}  // namespace edge::oauth
