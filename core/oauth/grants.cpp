#include "core/oauth/grants.h"

#include "core/crypto.h"
#include "core/pkce.h"

namespace core::oauth {

GrantDecision decide_code_exchange(const CodeState* code, const CodeExchange& request, std::int64_t now_ms) {
  using enum GrantOutcome;
  if (!code) return {invalid_grant, "authorization code is unknown"};
  if (code->used) return {replay, "authorization code was already used"};
  if (now_ms >= code->expires_at_ms) return {invalid_grant, "authorization code has expired"};
  if (!constant_time_equal(code->client_id, request.client_id))
    return {invalid_grant, "authorization code was issued to another client"};
  if (code->redirect_uri != request.redirect_uri)
    return {invalid_grant, "redirect_uri does not match the authorization request"};
  if (code->code_challenge.empty()) {
    if (request.code_verifier) return {invalid_grant, "code_verifier sent but no code_challenge was"};
  } else {
    if (!request.code_verifier) return {invalid_grant, "code_verifier is required"};
    if (!pkce_s256_matches(*request.code_verifier, code->code_challenge))
      return {invalid_grant, "code_verifier does not match the code_challenge"};
  }
  return {issue, ""};
}

GrantDecision decide_refresh(const RefreshState* token, std::string_view client_id, std::int64_t now_ms) {
  using enum GrantOutcome;
  if (!token) return {invalid_grant, "refresh token is unknown"};
  if (token->revoked) return {invalid_grant, "refresh token has been revoked"};
  if (token->client_id != client_id) return {invalid_grant, "refresh token was issued to another client"};
  if (token->rotated) return {replay, "refresh token was already used; its token family is revoked"};
  if (now_ms >= token->expires_at_ms) return {invalid_grant, "refresh token has expired"};
  return {issue, ""};
}

}  // namespace core::oauth
