#pragma once
// Refresh-token rotation for auth projects, with a reuse interval (DECISIONS.md, "Auth projects").
//
// Every refresh replaces the token by a successor pair. Presenting a token that was already rotated is a
// replay, which by RFC 9700 §4.14.2 revokes the whole family (here: the session). Strict rotation logs out
// real users whose device sent a refresh and lost the response, or whose tabs refreshed at once; so within
// the project's reuse interval after the rotation, the same token answers the same successor pair (nothing
// new is minted), as long as that successor has not been used itself. After the interval, or once the
// successor moved on, a replay revokes the session. Interval 0 is strict rotation.

#include <cstdint>

namespace core::auth {

// What the store knows about a presented refresh token. `session_live`: the session (the token's family)
// is neither revoked nor gone; `successor_used`: the pair this token was rotated to has itself been
// rotated or its session ended.
struct RefreshTokenState {
  std::int64_t expires_at_ms = 0;
  bool session_live = true;
  bool rotated = false;
  std::int64_t rotated_at_ms = 0;
  bool successor_used = false;
};

enum class RefreshOutcome {
  rotate,           // issue a successor pair and mark this token rotated
  reuse_successor,  // answer the successor pair made at the rotation
  replay,           // revoke the session (family); answer 401
  refused,          // unknown, expired or of an ended session; answer 401, change nothing
};

// `token` null: no such token. `reuse_interval_ms` 0: strict. The interval is inclusive of its start and
// exclusive of its end: a replay exactly `reuse_interval_ms` after the rotation is a replay.
RefreshOutcome decide_refresh(const RefreshTokenState* token, std::int64_t now_ms,
                              std::int64_t reuse_interval_ms);

}  // namespace core::auth
