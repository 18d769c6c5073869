#pragma once
// End-user sessions of an auth project and their tokens (DECISIONS.md, "Auth projects"):
// - a session is one sign-in on one device, and the family of the refresh tokens rotated from it;
// - access tokens are RS256 JWTs (core/auth/access_token.h) naming the session in `sid`, so userinfo can
//   answer 401 as soon as the session ends, before the token expires;
// - refresh tokens (`apr_`) are stored as SHA-256 hashes and rotate on every use, with the project's reuse
//   interval (core/auth/refresh_rotation.h). The successor pair is kept sealed on the rotated token while it
//   may be answered again, and dropped once the successor is used;
// - a replay after the interval, logout, a password reset, disabling or deleting the user end sessions.
// Signing happens outside the write transaction (an RSA signature is about a millisecond); the transaction
// re-decides on what it reads, so concurrent refreshes of one token serialize correctly.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

namespace json = core::json;
struct Project;
struct EndUser;

// How a session began and from where (shown in the session list).
struct SessionFacts {
  std::string amr;  // pwd, mfa, passkey, social
  std::string user_agent, ip;
};

struct TokenPair {
  std::string access_token, refresh_token, session_id;
  std::int64_t expires_in = 0;  // seconds the access token lives
};

// Starts a session for `user` and issues its first pair; notes the sign-in time on the user.
// Errors: `key_error`, `not_found` (user deleted meanwhile), `storage_error`.
core::Result<TokenPair> start_session(App& app, const Project& project, const EndUser& user,
                                      const SessionFacts& facts);

// What the API answers for a sign-in: {user, accessToken, refreshToken, tokenType, expiresIn}.
json::object signed_in_json(const EndUser& user, const TokenPair& pair);

// Why a refresh token was refused: always 401 to the client; `replayed` says the family was revoked.
struct RefreshRefusal {
  bool replayed = false;
};
core::Result<std::variant<TokenPair, RefreshRefusal>> refresh_session(App& app, const Project& project,
                                                                      std::string_view refresh_token);

// Ends the session of a refresh token. Returns false when the token is unknown (or its session already
// ended).
core::Result<bool> logout(App& app, const Project& project, std::string_view refresh_token);

struct SessionView {
  std::string id, user_id, amr, user_agent, ip;
  std::int64_t created_at = 0, last_refreshed_at = 0;
};
json::object to_api(const SessionView& s);
// Live sessions of a user, newest first.
core::Result<std::vector<SessionView>> list_sessions(App& app, std::string_view pid, std::string_view uid);
// Ends one session of the user (`not_found` when it is not theirs or already ended), or all of them.
core::Status revoke_session(App& app, std::string_view pid, std::string_view uid, std::string_view sid);
core::Result<std::size_t> revoke_all_sessions(App& app, std::string_view pid, std::string_view uid);
// Inside a transaction: ends every session of the user (password reset, disable) / erases them (delete).
std::size_t revoke_sessions_of_user_in(store::WriteTxn& txn, store::Table t, std::string_view pid,
                                       std::string_view uid, std::int64_t now_ms);
void erase_sessions_of_user_in(store::WriteTxn& txn, store::Table t, std::string_view pid,
                               std::string_view uid);

// For the sweep (auth_sweep.h), inside its transaction; `cutoff_ms`: records whose time is before it go.
// Removes the refresh token if it expired before the cutoff, with its `srt` entry. Its session goes too when
// no other refresh token of it is left: nothing can refresh it any more, and every access token of it has
// expired (an access token lives at most a day and was issued with a refresh token, which lives at least an
// hour, and the cutoff lies a day past that token's expiry). Absent: nothing.
void sweep_refresh_token_in(store::WriteTxn& txn, store::Table t, std::string_view pid, std::string_view hash,
                            std::int64_t cutoff_ms);
// Removes the session if it was revoked before the cutoff, with its `us` entry and every refresh token of it.
// Absent or live: nothing.
void sweep_session_in(store::WriteTxn& txn, store::Table t, std::string_view pid, std::string_view sid,
                      std::int64_t cutoff_ms);

// Whether the session exists, is not revoked, and its user is neither disabled nor gone.
core::Result<bool> session_live(App& app, std::string_view pid, std::string_view sid);
// The user of a live session `sid` of user `uid`, in one read; nullopt when session_live would say no.
core::Result<std::optional<EndUser>> live_session_user(App& app, std::string_view pid, std::string_view sid,
                                                       std::string_view uid);

}  // namespace edge::auth_projects
