#include "native/oidc/id_token.h"

#include <optional>

#include "core/jwt.h"
#include "core/rsa_verify.h"

namespace native::oidc {
namespace json = core::json;
namespace {

constexpr std::size_t kMaxSubBytes = 255;  // Core §2: "MUST NOT exceed 255 ASCII characters"

core::Error invalid_claims(std::string message) {
  return core::make_error("invalid_claims", std::move(message));
}

std::string string_claim(const json::object& claims, std::string_view name) {
  auto* v = claims.if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

// Core §3.1.3.7 steps 4-5. check_claims has already made sure aud is, or holds, client_id.
core::Status check_authorized_party(const json::object& claims, std::string_view client_id) {
  auto* aud = claims.if_contains("aud");
  const bool several = aud != nullptr && aud->is_array() && aud->get_array().size() > 1;
  auto* azp = claims.if_contains("azp");
  if (azp == nullptr || azp->is_null()) {
    if (several)
      return core::make_error("invalid_authorized_party",
                              "the token has several audiences and no azp naming this client");
    return {};
  }
  if (!azp->is_string() || azp->get_string() != client_id)
    return core::make_error("invalid_authorized_party", "the token's azp is not this client");
  return {};
}

}  // namespace

core::Result<IdTokenIdentity> validate_id_token(std::string_view id_token,
                                                std::span<const core::RsaPublicKey> keys,
                                                std::string_view issuer, std::string_view client_id,
                                                std::string_view nonce, std::int64_t now_s,
                                                std::int64_t leeway_s) {
  auto jwt = core::verify_rs256(id_token, keys);
  if (!jwt) return jwt.error();
  if (nonce.empty()) return core::make_error("nonce_mismatch", "no nonce was expected; the client sends one");
  CORE_TRY(core::check_claims(*jwt, core::ClaimChecks{std::string(issuer), std::string(client_id), now_s,
                                                      leeway_s, std::string(nonce)}));
  const json::object& claims = jwt->claims;
  if (claims.if_contains("iat") == nullptr) return invalid_claims("claim 'iat' is required");
  CORE_TRY(check_authorized_party(claims, client_id));
  auto* sub = claims.if_contains("sub");
  if (sub == nullptr || !sub->is_string() || sub->get_string().empty() ||
      sub->get_string().size() > kMaxSubBytes)
    return invalid_claims("claim 'sub' must be a string of 1 to 255 characters");

  IdTokenIdentity identity;
  identity.sub = std::string(sub->get_string());
  identity.email = string_claim(claims, "email");
  auto* verified = claims.if_contains("email_verified");
  identity.email_verified = verified != nullptr && verified->is_bool() && verified->get_bool();
  identity.name = string_claim(claims, "name");
  identity.claims = std::move(jwt->claims);
  return identity;
}

core::Result<IdTokenIdentity> validate_id_token(std::string_view id_token, JwksCache& jwks,
                                                const ProviderMetadata& provider, std::string_view client_id,
                                                std::string_view nonce, std::int64_t now_s,
                                                std::int64_t leeway_s) {
  auto seen = jwks.keys(provider.jwks_uri);
  if (!seen) return seen.error();
  auto first = validate_id_token(id_token, seen->keys, provider.issuer, client_id, nonce, now_s, leeway_s);
  if (first || first.error().code != "unknown_kid") return first;
  // The provider may have rotated its key since the set was stored.
  auto fresh = jwks.refetch_after_unknown_kid(provider.jwks_uri, *seen);
  if (!fresh)
    return core::make_error(
        "unknown_kid", first.error().message + "; refetching the JWK Set failed: " + fresh.error().message);
  if (fresh->generation == seen->generation) return first;
  return validate_id_token(id_token, fresh->keys, provider.issuer, client_id, nonce, now_s, leeway_s);
}

}  // namespace native::oidc
