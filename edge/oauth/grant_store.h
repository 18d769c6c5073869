#pragma once
// What users grant OAuth clients (document 1, "States"): consents, authorization codes and tokens, in the
// `oauth` table (layout: oauth_records.h). Codes and tokens are stored only as SHA-256 hashes of their
// plaintext; each has an expiry index entry for the sweep.
//
// Revocation epoch: every (user, client) pair has a counter, 0 until first bumped. Revoking the consent and
// end-session bump it; a code records the epoch it was issued under, and exchanging it under a later epoch is
// refused (invalid_grant). So a code issued before the user took access back never turns into tokens, even
// within its 10 minutes (RFC 9700 §4.5 spirit: a grant outlives nothing that ended it).
//
// Error codes: not_found, storage_error.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/clock.h"
#include "core/oauth/grants.h"
#include "core/random.h"
#include "core/result.h"
#include "core/scope.h"
#include "native/store/kv_store.h"

namespace edge::oauth {

struct Consent {
  std::string user_id, client_id;
  std::vector<std::string> scopes;
  std::int64_t granted_at = 0;
};

struct StoredCode {
  std::string client_id, user_id, redirect_uri, nonce, code_challenge;
  std::vector<std::string> scopes;
  std::int64_t auth_time_ms = 0, issued_at_ms = 0, expires_at_ms = 0;
  bool used = false;
  std::string family_id;   // set when exchanged: the tokens issued from it
  std::int64_t epoch = 0;  // the pair's revocation epoch when issued (set by issue_code)
};

struct StoredToken {
  enum class Kind { access, refresh } kind = Kind::access;
  std::string client_id, user_id, family_id;
  std::vector<std::string> scopes;
  std::int64_t issued_at_ms = 0, expires_at_ms = 0, auth_time_ms = 0;
  bool revoked = false, rotated = false;
};

// Tokens issued by a successful grant; plaintexts for the response.
struct IssuedTokens {
  std::string access_token, refresh_token;  // refresh empty when offline_access was not granted
  StoredToken access;
  std::vector<std::string> scopes;
  std::string user_id;
  std::int64_t auth_time_ms = 0;
  std::string nonce;
};

// A grant refused with invalid_grant (after committing any revocation the refusal required).
struct GrantRefusal {
  std::string error = "invalid_grant";
  std::string description;
};

class GrantStore {
 public:
  GrantStore(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random);

  // Consents. consent(): nullopt when there is none; `storage_error` when the store cannot tell.
  core::Result<std::optional<Consent>> consent(std::string_view user_id, std::string_view client_id);
  core::Status grant_consent(const Consent& consent);
  core::Result<std::vector<Consent>> consents_of(std::string_view user_id);
  // Deletes the consent, revokes every access and refresh token of the pair and bumps its epoch.
  core::Status revoke_consent(std::string_view user_id, std::string_view client_id);

  // Codes: returns the plaintext `oac_` code; records the pair's current epoch in it.
  core::Result<std::string> issue_code(StoredCode code);
  // Applies core::oauth::decide_code_exchange atomically and issues tokens. A replay marks every token
  // issued from the code revoked. A code issued under an older epoch of its pair is refused. Result: the
  // tokens, or a refusal (invalid_grant), or a storage error.
  core::Result<std::variant<IssuedTokens, GrantRefusal>> exchange_code(
      std::string_view code, const core::oauth::CodeExchange& request);
  // Applies core::oauth::decide_refresh atomically: rotates, or on replay revokes the whole family.
  // `narrowed`: scopes asked for on refresh (a subset of the original grant), or nullopt.
  core::Result<std::variant<IssuedTokens, GrantRefusal>> refresh(
      std::string_view refresh_token, std::string_view client_id,
      const std::optional<core::ScopeSet>& narrowed);

  // The stored token for a plaintext, whatever its state: nullopt when unknown, `storage_error` when the
  // store cannot tell (callers answer 503, never "invalid token").
  core::Result<std::optional<StoredToken>> token(std::string_view plaintext);
  // RFC 7009: revokes the token when `client_id` owns it (a refresh token with its whole family).
  core::Status revoke(std::string_view plaintext, std::string_view client_id);
  // End-session: revokes every token of (user, client) and bumps the pair's epoch.
  core::Status revoke_pair(std::string_view user_id, std::string_view client_id);

 protected:
  // Deletes every consent of `client_id`, revokes the pairs' tokens and drops their epochs, inside `tx`
  // (OAuthStore::delete_client).
  void forget_client_in(store::WriteTxn& tx, std::string_view client_id);
  // Erases the code or token (with its pair and family index entries) named by an expiry index entry.
  void erase_expired_in(store::WriteTxn& tx, std::string_view kind, std::string_view hash);

 private:
  store::KvStore& kv_;
  store::Table table_;
  core::Clock& clock_;
  core::RandomSource& random_;
};

}  // namespace edge::oauth
