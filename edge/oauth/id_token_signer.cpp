#include "edge/oauth/id_token_signer.h"

#include "core/bytes.h"
#include "core/crypto.h"
#include "core/jwk.h"
#include "core/rsa_verify.h"

namespace edge::oauth {
namespace json = core::json;

core::Result<IdTokenSigner> IdTokenSigner::create(const std::string& rsa_pem,
                                                  const std::string& previous_rsa_pem,
                                                  const std::string& hs256_secret,
                                                  const core::SecretKey& deployment_key) {
  IdTokenSigner s;
  if (!rsa_pem.empty()) {
    auto key = native::RsaSigningKey::from_pem(rsa_pem);
    if (!key) return core::make_error("invalid_key", "OAUTH_RSA_PRIVATE_KEY: " + key.error().message);
    s.current_ = std::move(*key);
  }
  if (!previous_rsa_pem.empty()) {
    if (!s.current_)
      return core::make_error("invalid_config",
                              "OAUTH_RSA_PRIVATE_KEY_PREVIOUS is set but OAUTH_RSA_PRIVATE_KEY is not");
    auto key = native::RsaSigningKey::from_pem(previous_rsa_pem);
    if (!key)
      return core::make_error("invalid_key", "OAUTH_RSA_PRIVATE_KEY_PREVIOUS: " + key.error().message);
    s.previous_ = std::move(*key);
  }
  if (!hs256_secret.empty()) {
    if (auto strong = core::validate_hs256_secret(hs256_secret); !strong)
      return core::make_error("invalid_key", "OAUTH_ID_TOKEN_SECRET: " + strong.error().message);
    s.hs256_secret_ = hs256_secret;
  } else {
    // Derived, so a deployment without any OAuth setting still signs with a secret only it knows.
    s.hs256_secret_ =
        core::hex_encode(core::hmac_sha256(deployment_key, core::as_bytes("oauth id_token HS256")));
  }
  return s;
}

std::string IdTokenSigner::sign(const json::object& claims) const {
  if (!current_) return core::sign_hs256(claims, hs256_secret_);
  json::object header{{"alg", "RS256"}, {"typ", "JWT"}, {"kid", current_->public_key().kid}};
  return core::encode_jwt(header, claims,
                          [this](std::string_view input) { return current_->sign_rs256(input); });
}

json::object IdTokenSigner::jwks() const {
  json::array keys;
  if (current_) keys.push_back(core::to_jwk(current_->public_key()));
  if (previous_) keys.push_back(core::to_jwk(previous_->public_key()));
  return {{"keys", std::move(keys)}};
}

core::Result<core::Jwt> IdTokenSigner::verify(std::string_view compact) const {
  if (!current_) return core::verify_hs256(compact, hs256_secret_);
  std::vector<core::RsaPublicKey> keys{current_->public_key()};
  if (previous_) keys.push_back(previous_->public_key());
  return core::verify_rs256(compact, keys);
}

}  // namespace edge::oauth
