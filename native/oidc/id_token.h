#pragma once
// Validation of an id_token from the token endpoint (OpenID Connect Core §3.1.3.7), RS256 only: the one
// algorithm every provider must support (Core §15.1) and the only one whose key the client can fetch.
// Order of checks and codes: docs/oidc-client.md, "id_token validation".

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/jwk.h"
#include "core/result.h"
#include "native/oidc/jwks_cache.h"
#include "native/oidc/provider_metadata.h"

namespace native::oidc {

// Who signed in, from a validated id_token.
struct IdTokenIdentity {
  std::string sub;              // the provider's stable id of the user (at most 255 ASCII characters)
  std::string email;            // "" when the token carries none
  bool email_verified = false;  // true only for the JSON value true
  std::string name;             // "" when the token carries none
  core::json::object claims;    // every claim of the token, as verified
};

// Validates `id_token` with `keys` for the provider `issuer` and this client, in this order (the first
// failure decides the code):
// 1. signature (core::verify_rs256): `invalid_jwt` (malformed, or a `kid` that is not a string),
//    `unsupported_alg` (alg is not exactly RS256: no `none`, no HS256), `unknown_kid` (no key with the
//    token's kid; several keys and no kid), `invalid_signature`;
// 2. claims (core::check_claims, `leeway_s` both ways): `invalid_issuer` (iss is not exactly `issuer`),
//    `invalid_audience` (aud neither is nor holds `client_id`), `token_expired`, `token_not_yet_valid`,
//    `token_issued_in_future`, `nonce_mismatch` (nonce is not exactly `nonce`), `invalid_claims` (exp
//    missing, a time claim not a number); an empty `nonce` argument is `nonce_mismatch` before any claim
//    is read (the client always sends a nonce, so expecting none is a caller's mistake, failed closed);
// 3. `invalid_claims`: iat missing (required by Core §2);
// 4. `invalid_authorized_party`: several audiences and no azp, or an azp other than `client_id`;
// 5. `invalid_claims`: sub missing, empty, not a string, or longer than 255 bytes.
// Pure: no network, no clock.
core::Result<IdTokenIdentity> validate_id_token(std::string_view id_token,
                                                std::span<const core::RsaPublicKey> keys,
                                                std::string_view issuer, std::string_view client_id,
                                                std::string_view nonce, std::int64_t now_s,
                                                std::int64_t leeway_s);

// The same with the provider's keys from `jwks` (provider.jwks_uri). When the token names a key the stored
// set lacks, the set is refetched (at most once per JwksCache::Settings::min_refetch_interval_ms per URI)
// and the token checked once more. Errors: those above; those of JwksCache::keys; `unknown_kid` also when
// the refetch fails (its message then says why).
core::Result<IdTokenIdentity> validate_id_token(std::string_view id_token, JwksCache& jwks,
                                                const ProviderMetadata& provider, std::string_view client_id,
                                                std::string_view nonce, std::int64_t now_s,
                                                std::int64_t leeway_s);

}  // namespace native::oidc
