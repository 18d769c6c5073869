#pragma once
// The state machines of authorization codes and refresh tokens (document 1, "States and transitions"),
// as decisions over stored state. The edge applies a decision inside one store transaction, so concurrent
// requests with the same code or refresh token see each other's effects: exactly one wins.

#include <cstdint>
#include <optional>
#include <string>

namespace core::oauth {

struct CodeState {
  std::string client_id, redirect_uri, code_challenge;
  std::int64_t expires_at_ms = 0;
  bool used = false;
};

struct CodeExchange {
  std::string client_id, redirect_uri;
  std::optional<std::string> code_verifier;
};

enum class GrantOutcome {
  issue,          // valid: issue tokens (and mark the code used / rotate the refresh token)
  invalid_grant,  // refuse with invalid_grant, change nothing
  replay,         // refuse with invalid_grant and revoke what was issued from this code / refresh family
};

struct GrantDecision {
  GrantOutcome outcome = GrantOutcome::invalid_grant;
  std::string description;
};

// `code` is null when the code is unknown. Order: unknown, used (replay, whoever presents it), expired,
// other client, other redirect_uri, PKCE (a verifier is required when a challenge was sent and refused
// when none was; it must match the S256 challenge).
GrantDecision decide_code_exchange(const CodeState* code, const CodeExchange& request, std::int64_t now_ms);

struct RefreshState {
  std::string client_id;
  std::int64_t expires_at_ms = 0;
  bool rotated = false;  // already exchanged once
  bool revoked = false;  // revoked directly, by its family, by consent revocation or end-session
};

// Order: unknown, revoked, other client (refused without touching the family: the presenter does not own
// it), rotated (replay: the whole family is revoked), expired.
GrantDecision decide_refresh(const RefreshState* token, std::string_view client_id, std::int64_t now_ms);

// Whether an access or refresh token is live for userinfo and introspection.
inline bool is_live(bool revoked, std::int64_t expires_at_ms, std::int64_t now_ms) {
  return !revoked && now_ms < expires_at_ms;
}

}  // namespace core::oauth
