#pragma once
// The passkeys of an auth project's end users (docs/auth-passkeys.md). Each passkey is a user-owned record
// with an index by credential ID, so a passwordless sign-in finds it from the browser's answer alone and
// deleting the user deletes both (end_users.h, `indexKey`):
//
//   p/<pid>/ux/<uid>/passkey/<passkey id>   passkey: credential ID, COSE public key, counter, ... indexKey
//   p/<pid>/pkid/<sha256 hex of cred ID>   -> {"userId", "passkeyId"} (credential IDs may be 1023 bytes,
//                                             longer than a key may be: the hash names them)
//   p/<pid>/ux/<uid>/passkey-handle         {"handle"}: the user's WebAuthn user handle (user.id)
//
// The user handle is 64 random bytes made at the user's first registration (WebAuthn Level 3 §14.6.1
// recommends random bytes: it is stored on the authenticator and must reveal neither the user id nor the
// email). Every passkey of the user carries the same handle, and a sign-in whose userHandle differs from
// the credential's is refused.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/auth/webauthn/ceremony.h"
#include "core/bytes.h"
#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

namespace json = core::json;

// How many passkeys one user may hold: enough for every device a person owns, small enough that a
// registration loop cannot fill the store.
inline constexpr std::size_t kMaxPasskeysPerUser = 20;
inline constexpr std::size_t kMaxPasskeyNameLength = 100;

struct Passkey {
  std::string id, user_id, name;
  core::Bytes credential_id;
  core::Bytes public_key_cose;  // the COSE_Key as the authenticator encoded it
  std::int64_t alg = -7;        // COSE algorithm: -7 ES256, -257 RS256
  std::uint32_t sign_count = 0;
  std::string aaguid;                   // UUID text; all zeros when the authenticator hides its model
  std::vector<std::string> transports;  // the browser's getTransports(), hints for excludeCredentials
  core::Bytes user_handle;
  bool backup_eligible = false, backed_up = false;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_used_at;
};

// What the API shows: id, name, credentialId (base64url), aaguid, alg, signCount, transports,
// backupEligible, backedUp, createdAt, lastUsedAt. Never the user handle.
json::object to_api(const Passkey& p);

// The user's WebAuthn user handle, made (64 random bytes) and stored when the user has none yet.
// Errors: `not_found` (no such user), `storage_error`.
core::Result<core::Bytes> passkey_user_handle(App& app, std::string_view pid, std::string_view uid);

// The user's passkeys, oldest first. Errors: `storage_error`.
core::Result<std::vector<Passkey>> list_passkeys(App& app, std::string_view pid, std::string_view uid);

// Stores a new passkey of `passkey.user_id` (id, createdAt filled here). Errors: `conflict` (the credential
// ID is registered in this project already, to this user or another), `not_found` (the user is gone),
// `unprocessable` (the user holds kMaxPasskeysPerUser passkeys), `storage_error`.
core::Result<Passkey> add_passkey(App& app, std::string_view pid, Passkey passkey);

// The passkey registered in the project under `credential_id`, or nullopt. Errors: `storage_error`.
core::Result<std::optional<Passkey>> find_passkey_by_credential(App& app, std::string_view pid,
                                                                std::span<const std::uint8_t> credential_id);

// Stores what a verified assertion says about `seen` (the passkey as read before the verification): the
// new counter, the backup state and lastUsedAt. The counter rule is applied again against what is stored
// now, so two sign-ins racing with one counter value cannot both pass. Answers the updated passkey, or
// nullopt when the passkey is gone or its stored counter is no longer below the new one (then nothing
// changes). Errors: `storage_error`.
core::Result<std::optional<Passkey>> record_passkey_use(App& app, std::string_view pid, const Passkey& seen,
                                                        const core::webauthn::VerifiedAssertion& assertion);

// Deletes one passkey of the user with its index. Errors: `not_found` (no such passkey of this user),
// `storage_error`.
core::Status delete_passkey(App& app, std::string_view pid, std::string_view uid,
                            std::string_view passkey_id);

}  // namespace edge::auth_projects
