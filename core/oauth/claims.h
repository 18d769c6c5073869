#pragma once
// Claims about a user released to a client, by granted scope (document 1, "Scopes"; OpenID Connect Core
// §5.4): openid -> sub; profile -> name, preferred_username, picture; email -> email, email_verified.

#include <cstdint>
#include <string>

#include "core/json.h"
#include "core/scope.h"

namespace core::oauth {

inline constexpr std::int64_t kCodeLifetimeS = 600;  // 10 minutes, single use
inline constexpr std::int64_t kAccessTokenLifetimeS = 3600;
inline constexpr std::int64_t kRefreshTokenLifetimeS = 30LL * 24 * 3600;  // 30 days
inline constexpr std::int64_t kIdTokenLifetimeS = 3600;

struct UserProfile {
  std::string sub, name, preferred_username, picture, email;
  bool email_verified = false;
};

// The userinfo response and the scope part of the id_token. `picture` is left out when the user has none.
json::object scope_claims(const UserProfile& user, const ScopeSet& scopes);

struct IdTokenFacts {
  std::string issuer, client_id, nonce;  // nonce empty: not sent to authorize, so not in the token
  std::int64_t auth_time_s = 0, issued_at_s = 0;
};

// iss, sub, aud, exp (issued_at + 1 hour), iat, auth_time, nonce (when sent), plus scope_claims.
json::object id_token_claims(const UserProfile& user, const ScopeSet& scopes, const IdTokenFacts& facts);

}  // namespace core::oauth
