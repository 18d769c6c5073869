#pragma once
// A restart target's type-specific settings between the dashboard's JSON, the core's structs
// (core/status/restart_target.h) and the stored record (docs/status-restart.md, "API" and "Storage").
//
// The JSON members are the core structs' member names. Secrets (HTTP `authHeaderValue`, SSH
// `privateKeyPem` and `passphrase`, deploy `apiToken`) are write-only: they are sealed with AES-256-GCM
// (native/crypto/aes_gcm_seal.h) into the record's `sealed` object, associated data `<record key>#<member>`,
// and shown only as `hasAuthHeader`, `hasPrivateKey`, `hasPassphrase`, `hasApiToken`.

#include <string>
#include <string_view>
#include <variant>

#include "core/json.h"
#include "core/result.h"
#include "core/status/restart_target.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

using RestartSettings = std::variant<core::status::HttpRestartTarget, core::status::SshRestartTarget,
                                     core::status::DeployRestartTarget>;

core::status::RestartTargetType type_of(const RestartSettings& settings);
// The core's defaults for a new target of `type`.
RestartSettings default_settings(core::status::RestartTargetType type);

// Applies the members present in `body` (a `settings` object) to `settings`: `invalid_field` for a member
// of the wrong type. Secrets: a string sets, null clears, absence keeps the current value. Members of other
// types and unknown members are ignored. Does not validate the result (validate_settings does).
core::Status apply_settings(const json::object& body, RestartSettings& settings);

// The core validator of the settings' type (its codes and order).
core::Status validate_settings(const RestartSettings& settings);

// The settings without their secrets, plus the `has*` flags: what responses show.
json::object settings_view(const RestartSettings& settings);

// The stored target's settings as responses show them, without unsealing anything: the `has*` flags say
// which secrets are stored.
json::object stored_settings_view(const json::object& target);

// Stores `settings` into `target` (the record under `record_key`): `settings` (no secrets) and `sealed`
// (each non-empty secret sealed under app.secret_key).
void store_settings(App& app, std::string_view record_key, const RestartSettings& settings,
                    json::object& target);

// The stored target's settings with its secrets unsealed, for validation and firing. `sealed_invalid`
// when a secret does not open (another secret key, or a record copied elsewhere).
core::Result<RestartSettings> load_settings(App& app, std::string_view record_key,
                                            const json::object& target);

}  // namespace edge::status
