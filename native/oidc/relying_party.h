#pragma once
// The OpenID Connect relying party, authorization code flow with PKCE (OpenID Connect Core §3.1, RFC 7636),
// for a confidential client: build the authorization request, exchange the code, validate the id_token
// (id_token.h), optionally read userinfo. The caller keeps state, nonce and code_verifier between the
// request and the callback (they are the login's secrets), and compares the callback's `state` with its
// own (in constant time) before calling exchange_code. Decisions: docs/oidc-client.md.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/random.h"
#include "core/result.h"
#include "native/oidc/http_fetch.h"
#include "native/oidc/id_token.h"
#include "native/oidc/jwks_cache.h"
#include "native/oidc/provider_metadata.h"

namespace native::oidc {

struct AuthorizationRequest {
  std::string url;            // where to send the browser
  std::string state;          // 43 base64url characters (256 random bits)
  std::string nonce;          // 43 base64url characters (256 random bits)
  std::string code_verifier;  // 43 base64url characters (256 random bits); S256 challenge in `url`
};

// provider.authorization_endpoint (its own query kept, RFC 6749 §3.1) with response_type=code, client_id,
// redirect_uri, scope, state, nonce, code_challenge and code_challenge_method=S256. `scope` is "openid"
// followed by `scopes` in order, duplicates dropped ("openid" is added when missing).
// Errors: `oidc_invalid_request` (empty client_id or redirect_uri; a scope that is not an RFC 6749 §3.3
// scope-token).
core::Result<AuthorizationRequest> authorization_request(const ProviderMetadata& provider,
                                                         std::string_view client_id,
                                                         std::string_view redirect_uri,
                                                         const std::vector<std::string>& scopes,
                                                         core::RandomSource& random);

// A successful token response (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3). The tokens are secrets.
struct TokenResponse {
  std::string access_token;
  std::string token_type;     // "Bearer" in the provider's spelling (compared case-insensitively)
  std::string id_token;       // not yet validated: see validate_id_token
  std::string refresh_token;  // "" when none was issued
  std::string scope;          // "" when the provider did not say (then the requested scopes were granted)
  std::optional<std::int64_t> expires_in;
};

// POST provider.token_endpoint: grant_type=authorization_code, code, redirect_uri (the one of the
// authorization request), code_verifier (left out when empty); the client authenticates per
// provider.token_auth, by default HTTP Basic with id and secret each form-url-encoded before base64 (RFC 6749
// §2.3.1). No redirect is followed. Errors: those of http_post_form; `oidc_token_refused` (any status other
// than 200: the message has the status and the OAuth `error` and `error_description` when the body has them,
// e.g. "400 invalid_grant: authorization code is unknown"); `oidc_bad_response` (a 200 whose body is not a
// JSON object with string access_token and id_token and token_type Bearer). Messages never contain the
// secret, the code or the verifier.
core::Result<TokenResponse> exchange_code(const ProviderMetadata& provider, std::string_view client_id,
                                          std::string_view client_secret, std::string_view redirect_uri,
                                          std::string_view code, std::string_view code_verifier,
                                          const FetchOptions& options = {});

// GET provider.userinfo_endpoint with the access token (RFC 6750 §2.1) and returns its claims (OpenID
// Connect Core §5.3). `expected_sub` is the validated id_token's sub; the answer must name the same user
// (Core §5.3.2). Signed or encrypted userinfo (application/jwt) is not supported.
// Errors: `oidc_no_userinfo` (the provider publishes no endpoint); those of http_get;
// `oidc_userinfo_refused` (a status other than 200); `oidc_bad_response` (not a JSON object);
// `oidc_sub_mismatch`.
core::Result<core::json::object> userinfo(const ProviderMetadata& provider, std::string_view access_token,
                                          std::string_view expected_sub, const FetchOptions& options = {});

}  // namespace native::oidc
