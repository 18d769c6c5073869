#pragma once
// The end users of an auth project (records `p/<pid>/u/<uid>` with the email index `p/<pid>/ue/<email>`).
// Passwords are argon2id (native/crypto/password.h), hashed outside any transaction. Other parts of the
// auth product keep per-user records under `p/<pid>/ux/<uid>/...` (passkeys, identities); deleting a user
// deletes that range, its sessions and tokens, and any key a record there names in its `indexKey` member.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
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

struct EndUser {
  std::string id, project_id, email, name;
  std::string password_hash;  // empty: the user has no password (passkey or social sign-in only)
  bool email_verified = false, disabled = false;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_sign_in_at;
  // Second factors (mfa_routes.cpp): {"totp": {"secret": sealed, "enabled": bool, "lastStep": n},
  // "recoveryCodes": [sha256 hex, ...]}. Empty when none.
  json::object mfa;

  bool has_totp() const;
};

json::object to_record(const EndUser& u);
EndUser user_from_record(const json::object& rec);
// What the API shows: id, email, name, emailVerified, disabled, mfa {totp}, createdAt, lastSignInAt.
json::object to_api(const EndUser& u);

// The key of the user's record and of the user-owned range.
std::string user_key(std::string_view pid, std::string_view uid);
std::string user_owned_prefix(std::string_view pid, std::string_view uid);

// Reads inside a transaction: nullopt when missing.
std::optional<EndUser> get_user(const store::ReadTxn& txn, store::Table t, std::string_view pid,
                                std::string_view uid);
std::optional<EndUser> get_user_by_email(const store::ReadTxn& txn, store::Table t, std::string_view pid,
                                         std::string_view email);
void put_user(store::WriteTxn& txn, store::Table t, const EndUser& u);

// Creates a user. `password` empty: none (the caller checked the policy). Errors: `invalid_email`,
// `conflict` (the email is taken in this project), `unavailable` (no memory to hash), `storage_error`.
core::Result<EndUser> create_user(App& app, const Project& project, std::string_view email,
                                  std::string_view password, std::string name, bool email_verified);
core::Result<std::optional<EndUser>> find_user(App& app, std::string_view pid, std::string_view uid);
core::Result<std::optional<EndUser>> find_user_by_email(App& app, std::string_view pid,
                                                        std::string_view email);

// Users whose email or name contains `q` (ASCII case-insensitive; all when empty), by creation, paged.
struct UserPage {
  std::vector<EndUser> users;
  std::size_t total = 0;
};
core::Result<UserPage> list_users(App& app, std::string_view pid, std::string_view q, std::size_t limit,
                                  std::size_t skip);

// Deletes the user with its sessions, refresh tokens and owned records. `not_found`.
core::Status delete_user(App& app, std::string_view pid, std::string_view uid);

// Applies `change` to the stored user in one transaction (read-modify-write). `not_found` when missing;
// `change`'s own error is returned as is and nothing is written.
core::Result<EndUser> update_user(App& app, std::string_view pid, std::string_view uid,
                                  const std::function<core::Status(EndUser&)>& change);
// The same, for a change that also reads or writes other records in the same transaction.
core::Result<EndUser> update_user(App& app, std::string_view pid, std::string_view uid,
                                  const std::function<core::Status(store::WriteTxn&, EndUser&)>& change);

}  // namespace edge::auth_projects
