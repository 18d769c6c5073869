#pragma once
// OAuth clients, consent records, authorization codes and tokens in the `oauth` table. Codes and tokens
// are stored only as SHA-256 hashes of their plaintext; client secrets too.
//
// Keys:
//   client/<clientId>                          OAuthClient
//   company-client/<companyId>/<clientId>      index of a company's clients
//   consent/<userId>/<clientId>                Consent
//   code/<sha256>                              StoredCode
//   token/<sha256>                             StoredToken (access or refresh)
//   grant/<userId>/<clientId>/<sha256>         every token of a (user, client) pair: consent revocation
//                                              and end-session revoke through it
//   family/<familyId>/<sha256>                 every token of one refresh family (one code exchange and
//                                              its refreshes): a replay revokes through it
//
// Error codes: not_found, conflict, storage_error, and the validation codes of the inputs (400).

#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/json.h"
#include "core/oauth/grants.h"
#include "core/random.h"
#include "core/result.h"
#include "core/scope.h"
#include "native/store/kv_store.h"

namespace edge::oauth {

struct OAuthClient {
  std::string client_id, company_id, name, homepage_url, secret_hash;
  std::vector<std::string> redirect_uris, post_logout_redirect_uris, scopes;
  bool is_public = false;
  std::int64_t created_at = 0, secret_rotated_at = 0;
};

// What registration and updates accept; validated by validate_client_input.
struct ClientInput {
  std::optional<std::string> name, homepage_url;
  std::optional<std::vector<std::string>> redirect_uris, post_logout_redirect_uris, scopes;
  std::optional<bool> is_public;
};

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
  std::string family_id;  // set when exchanged: the tokens issued from it
};

struct StoredToken {
  enum class Kind { access, refresh } kind = Kind::access;
  std::string client_id, user_id, family_id;
  std::vector<std::string> scopes;
  std::int64_t issued_at_ms = 0, expires_at_ms = 0, auth_time_ms = 0;
  bool revoked = false, rotated = false;
};

core::json::object to_json(const OAuthClient& c);  // what the API shows (never the secret or its hash)

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

class OAuthStore {
 public:
  OAuthStore(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random);

  // Clients. create: the plaintext secret in `secret` (empty for public clients).
  core::Result<OAuthClient> create_client(const std::string& company_id, const ClientInput& input,
                                          std::string* secret);
  core::Result<OAuthClient> client(std::string_view client_id);
  core::Result<std::vector<OAuthClient>> clients_of(const std::string& company_id);
  core::Result<OAuthClient> update_client(const std::string& company_id, std::string_view client_id,
                                          const ClientInput& input);
  core::Result<OAuthClient> rotate_secret(const std::string& company_id, std::string_view client_id,
                                          std::string* secret);
  // Deleting a client revokes every token it holds and its consents.
  core::Status delete_client(const std::string& company_id, std::string_view client_id);
  // Checks a client's credentials: a confidential client must present its secret (constant-time),
  // a public client none. `invalid_client` otherwise.
  core::Result<OAuthClient> authenticate_client(std::string_view client_id,
                                                std::optional<std::string_view> secret);

  // Consents.
  std::optional<Consent> consent(std::string_view user_id, std::string_view client_id);
  core::Status grant_consent(const Consent& consent);
  core::Result<std::vector<Consent>> consents_of(std::string_view user_id);
  // Deletes the consent and revokes every access and refresh token of the pair.
  core::Status revoke_consent(std::string_view user_id, std::string_view client_id);

  // Codes: returns the plaintext `oac_` code.
  core::Result<std::string> issue_code(StoredCode code);
  // Applies core::oauth::decide_code_exchange atomically and issues tokens. A replay marks every token
  // issued from the code revoked. Result: the tokens, or a refusal (invalid_grant), or a storage error.
  core::Result<std::variant<IssuedTokens, GrantRefusal>> exchange_code(
      std::string_view code, const core::oauth::CodeExchange& request);
  // Applies core::oauth::decide_refresh atomically: rotates, or on replay revokes the whole family.
  // `narrowed`: scopes asked for on refresh (a subset of the original grant), or nullopt.
  core::Result<std::variant<IssuedTokens, GrantRefusal>> refresh(
      std::string_view refresh_token, std::string_view client_id,
      const std::optional<core::ScopeSet>& narrowed);

  // The stored token for a plaintext, whatever its state.
  std::optional<StoredToken> token(std::string_view plaintext);
  // RFC 7009: revokes the token when `client_id` owns it (a refresh token with its whole family).
  core::Status revoke(std::string_view plaintext, std::string_view client_id);
  // End-session: revokes every token of (user, client).
  core::Status revoke_pair(std::string_view user_id, std::string_view client_id);

  // Deletes codes and tokens that expired more than kSweepGraceMs ago, with their index entries; at most
  // `max_items` per call, so one pass holds the writer briefly. Returns how many records went. Until the
  // grace passes, a replayed expired code or rotated refresh token is still recognised (and still revokes
  // what descends from it).
  static constexpr std::int64_t kSweepGraceMs = 24LL * 3600 * 1000;
  core::Result<std::size_t> sweep(std::size_t max_items = 1000);

 private:
  store::KvStore& kv_;
  store::Table table_;
  core::Clock& clock_;
  core::RandomSource& random_;
};

// Validates registration input; `require_all` for creation (name, redirect URIs and scopes required).
core::Status validate_client_input(const ClientInput& input, bool require_all);

}  // namespace edge::oauth
