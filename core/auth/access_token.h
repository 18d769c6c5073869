#pragma once
// End-user access tokens of auth projects (DECISIONS.md, "Auth projects"): RS256 JWTs with `iss`, `sub`,
// `aud`, `exp`, `iat` and `sid`, signed by the project's current key and checked against its JWKS. The
// same checks run on the server (userinfo) and in JavaScript apps through the wasm core.

#include <cstdint>
#include <span>
#include <string>

#include "core/json.h"
#include "core/jwk.h"
#include "core/result.h"

namespace core::auth {

// The issuer of a project's tokens: `{auth_url}/api/v1/auth/{slug}`, beside its jwks.json.
std::string project_issuer(std::string_view auth_url, std::string_view project_slug);

struct AccessTokenFacts {
  std::string issuer, project_id, user_id, session_id, email;
  bool email_verified = false;
  std::string amr;  // how the session signed in: pwd, mfa, passkey, social (RFC 8176 values where they exist)
  std::int64_t now_s = 0, ttl_s = 900;
};

// The claims, in this order: iss, sub, aud (the project id), exp, iat, sid, email, email_verified, amr.
json::object access_token_claims(const AccessTokenFacts& facts);

struct VerifiedAccessToken {
  std::string user_id, session_id;
  std::int64_t expires_at_s = 0, issued_at_s = 0;
  json::object claims;
};

// Verifies the RS256 signature with `keys` (by kid), then iss, aud, exp and iat (core::check_claims with
// `leeway_s`), then that `sub` and `sid` are non-empty strings.
// Errors: those of core::verify_rs256 and core::check_claims, and `invalid_claims`.
Result<VerifiedAccessToken> verify_access_token(std::string_view compact, std::span<const RsaPublicKey> keys,
                                                std::string_view issuer, std::string_view project_id,
                                                std::int64_t now_s, std::int64_t leeway_s = 0);

}  // namespace core::auth
