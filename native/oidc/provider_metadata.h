#pragma once
// An OpenID provider as the relying party knows it: its discovery document (OpenID Connect Discovery 1.0)
// checked against the issuer the project configured, and its signing keys (JWK Set). What is checked and
// why: docs/oidc-client.md, "Discovery".

#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/jwk.h"
#include "core/result.h"
#include "native/oidc/http_fetch.h"

namespace native::oidc {

// How the client authenticates at the token endpoint (OpenID Connect Core §9).
enum class TokenAuthMethod { client_secret_basic, client_secret_post };

struct ProviderMetadata {
  std::string issuer;  // equal to the configured issuer, byte for byte
  std::string authorization_endpoint;
  std::string token_endpoint;
  std::string jwks_uri;
  std::string userinfo_endpoint;     // "" when the provider publishes none
  std::string end_session_endpoint;  // "" when the provider publishes none
  // Whether code_challenge_methods_supported lists S256. False when the member is absent: the client sends
  // an S256 challenge anyway (a server without PKCE ignores it, RFC 7636 §5). A list without S256 is
  // refused by discovery.
  bool pkce_s256_advertised = false;
  // client_secret_basic, the default of token_endpoint_auth_methods_supported, unless the provider lists
  // that member without client_secret_basic but with client_secret_post.
  TokenAuthMethod token_auth = TokenAuthMethod::client_secret_basic;
  core::json::object document;  // the whole discovery document, for members not modelled here
};

// `{issuer}/.well-known/openid-configuration`, one trailing '/' of the issuer removed first (Discovery §4).
std::string discovery_url(std::string_view issuer);

// Checks a discovery document (the body of a 200 answer) against the configured `issuer`, in this order:
// - a JSON object, else `oidc_bad_metadata`;
// - `issuer` a string equal to `issuer` exactly (Discovery §4.3: no normalisation, a trailing '/' counts),
//   else `oidc_issuer_mismatch`;
// - `authorization_endpoint`, `token_endpoint`, `jwks_uri` strings (required), `userinfo_endpoint`,
//   `end_session_endpoint` strings when present, else `oidc_bad_metadata`; each URL must pass
//   check_fetch_url (`oidc_insecure_url`, `oidc_invalid_url`);
// - `response_types_supported` holds "code", `id_token_signing_alg_values_supported` holds "RS256",
//   `code_challenge_methods_supported` holds "S256", `token_endpoint_auth_methods_supported` holds
//   client_secret_basic or client_secret_post, each only when present (string arrays, else
//   `oidc_bad_metadata`), else `oidc_unsupported_provider`: the client could not complete a login.
core::Result<ProviderMetadata> parse_provider_metadata(std::string_view body, std::string_view issuer);

// Fetches discovery_url(issuer) and checks it with parse_provider_metadata. The configured issuer itself
// must be an https URL (http only for a loopback host) without query or fragment. Errors: those of
// check_fetch_url and http_get; `oidc_invalid_url` (query or fragment in the issuer);
// `oidc_bad_response` (a status other than 200); those of parse_provider_metadata.
core::Result<ProviderMetadata> discover(std::string_view issuer, const FetchOptions& options = {});

// Parses a JWK Set (RFC 7517 §5) into its RS256 keys (core::parse_jwks: keys for other algorithms or uses
// are skipped, a malformed RSA signing key fails the set). Errors: `oidc_bad_jwks` (not JSON, malformed, or
// no RS256 key at all).
core::Result<std::vector<core::RsaPublicKey>> parse_provider_jwks(std::string_view body);

// Fetches `jwks_uri` and parses it with parse_provider_jwks. Errors: those of http_get,
// `oidc_bad_response` (a status other than 200), `oidc_bad_jwks`.
core::Result<std::vector<core::RsaPublicKey>> fetch_jwks(std::string_view jwks_uri,
                                                         const FetchOptions& options = {});

}  // namespace native::oidc
