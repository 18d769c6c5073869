#pragma once
// Opaque credentials in the formats of the specification. Only their SHA-256 hashes are stored
// (core::sha256_hex); the plaintext is shown once at creation.

#include <string>
#include <string_view>

#include "core/random.h"

namespace core {

enum class TokenKind {
  access_token,         // stk_ + 48 hex: company access token (document 2)
  env_vault_token,      // stk_env_ + 48 hex: identifies one env vault project
  auth_project_key,     // aps_ + 48 hex: master key of an end-user auth project
  oauth_access,         // oat_ + 43 base64url (256 bits): OAuth access token
  oauth_refresh,        // ort_ + 43 base64url: OAuth refresh token
  oauth_code,           // oac_ + 43 base64url: OAuth authorization code
  oauth_client_secret,  // ocs_ + 43 base64url: an OAuth client's secret
  session,              // ses_ + 43 base64url: platform browser session
  auth_refresh,         // apr_ + 43 base64url: an auth project's end-user refresh token
  auth_link,            // apl_ + 43 base64url: single-use token in an auth project's verify or reset link
  auth_ticket,          // apt_ + 43 base64url: short-lived ticket between login steps (MFA, linking)
  csrf,                 // 43 base64url, no prefix: form CSRF token
};

std::string_view token_prefix(TokenKind kind);

// A fresh token of `kind` built from `random`.
std::string make_token(TokenKind kind, RandomSource& random);

// Whether `text` has exactly the shape of a `kind` token (prefix, length, alphabet). A `stk_env_` token is
// not an `access_token`, even though both start with `stk_`.
bool has_token_shape(TokenKind kind, std::string_view text);

// The first 12 characters: what listings show of a token after creation (`tokenPrefix`).
std::string token_display_prefix(std::string_view token);

}  // namespace core
