#pragma once
// OAuth clients (document 1, "Clients"): registration, updates, secret rotation and authentication, in the
// `oauth` table (layout: oauth_records.h). Secrets are stored only as SHA-256 hashes.
//
// Error codes: not_found, conflict, invalid_client, storage_error, and the validation codes of the inputs.

#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/json.h"
#include "core/random.h"
#include "core/result.h"
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

core::json::object to_json(const OAuthClient& c);  // what the API shows (never the secret or its hash)

// Validates registration input; `require_all` for creation (name, redirect URIs and scopes required).
// Redirect and post-logout redirect URIs follow core::oauth::validate_redirect_uri (https, or http on a
// loopback host).
core::Status validate_client_input(const ClientInput& input, bool require_all);

class ClientStore {
 public:
  ClientStore(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random);

  // create: the plaintext secret in `secret` (empty for public clients).
  core::Result<OAuthClient> create_client(const std::string& company_id, const ClientInput& input,
                                          std::string* secret);
  core::Result<OAuthClient> client(std::string_view client_id);
  core::Result<std::vector<OAuthClient>> clients_of(const std::string& company_id);
  core::Result<OAuthClient> update_client(const std::string& company_id, std::string_view client_id,
                                          const ClientInput& input);
  core::Result<OAuthClient> rotate_secret(const std::string& company_id, std::string_view client_id,
                                          std::string* secret);
  // Checks a client's credentials: a confidential client must present its secret (constant-time),
  // a public client none. `invalid_client` otherwise.
  core::Result<OAuthClient> authenticate_client(std::string_view client_id,
                                                std::optional<std::string_view> secret);

 protected:
  // Erases the client record and its company index entry inside `tx`; `not_found` when the client is not
  // the company's. OAuthStore::delete_client adds the client's grants to the same transaction.
  core::Status erase_client_in(store::WriteTxn& tx, const std::string& company_id,
                               std::string_view client_id);

 private:
  store::KvStore& kv_;
  store::Table table_;
  core::Clock& clock_;
  core::RandomSource& random_;
};

}  // namespace edge::oauth
