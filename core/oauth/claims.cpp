#include "core/oauth/claims.h"

namespace core::oauth {

json::object scope_claims(const UserProfile& user, const ScopeSet& scopes) {
  json::object c{{"sub", user.sub}};
  if (scopes.contains("profile")) {
    c["name"] = user.name;
    c["preferred_username"] = user.preferred_username;
    // OpenID Connect Core §5.3.2: a claim without a value is left out, not null.
    if (!user.picture.empty()) c["picture"] = user.picture;
  }
  if (scopes.contains("email")) {
    c["email"] = user.email;
    c["email_verified"] = user.email_verified;
  }
  return c;
}

json::object id_token_claims(const UserProfile& user, const ScopeSet& scopes, const IdTokenFacts& facts) {
  json::object c{{"iss", facts.issuer},      {"sub", user.sub},
                 {"aud", facts.client_id},   {"exp", facts.issued_at_s + kIdTokenLifetimeS},
                 {"iat", facts.issued_at_s}, {"auth_time", facts.auth_time_s}};
  if (!facts.nonce.empty()) c["nonce"] = facts.nonce;
  for (auto& [k, v] : scope_claims(user, scopes))
    if (k != "sub") c[k] = v;
  return c;
}

}  // namespace core::oauth
