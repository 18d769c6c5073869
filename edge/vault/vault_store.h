#pragma once
// The env vault's records (docs/env-vault.md, "Storage layout"), all in the `vault` table:
//
//   p/<companyId>/<projectId>           project {id, name, createdAt, updatedAt}
//   e/<projectId>/<env>                 environment {name, version, createdAt, updatedAt}
//   s/<projectId>/<env>/<version:10>    snapshot {version, variables: {KEY: {sealed, public, sv}}}
//   c/<projectId>/<env>/<version:10>    change {version, at, kind, actor, added, removed, changed, keys,
//                                       rolledBackTo?}: the history and the ordered change log, no values
//   t/<projectId>/<tokenId>             env token {id, projectId, environment, name, access, tokenPrefix,
//                                       tokenHash, createdAt, createdBy, lastUsedAt?, revokedAt?}
//   th/<sha256 hex of the plaintext>    {companyId, projectId, tokenId}: the token lookup
//   w/<projectId>/<webhookId>, wo/...   change webhooks and their outbox (vault_webhooks.h)
//
// Values are sealed (core/sealed.h) with associated data `env-vault/<projectId>/<env>/<KEY>/<sv>`, where
// `sv` is the version that sealed the value: a sealed value copied to another project, environment or key
// does not open. A value unchanged by a push keeps its sealed text and `sv`.
//
// Every version is a full snapshot, so fetch reads one record and rollback copies one. A push checks
// `baseVersion` against the environment's version and writes the snapshot, the change record, the new
// version, the audit entry and the webhook outbox jobs in one write transaction: of concurrent pushes with
// the same baseVersion exactly one commits, the others see the new version and answer 409.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "core/vault/variables.h"
#include "edge/platform/company_auth.h"

namespace edge {
struct App;
}

namespace edge::vault {

namespace json = core::json;
using core::vault::Variables;

inline const std::vector<std::string> kDefaultEnvironments = {"development", "staging", "production"};
inline constexpr std::size_t kMaxEnvironments = 20;
inline constexpr std::size_t kMaxTokensPerProject = 100;

// What an env token may do (docs/env-vault.md, "Tokens"): `full` push, fetch, public, changes; `read` fetch,
// public, changes; `public` only GET /api/env-vault/public, the one a browser may hold.
enum class Access { full, read, public_only };
std::optional<Access> parse_access(std::string_view text);
std::string_view access_name(Access a);

// `invalid_field` unless `[a-z0-9][a-z0-9_-]{0,31}`.
core::Status validate_environment(std::string_view name);

// ---- projects and environments (the management API)

// `environments` empty: kDefaultEnvironments. Errors: `invalid_field`, `storage_error`.
core::Result<json::object> create_project(App& app, const CompanyContext& ctx, std::string_view name,
                                          const std::vector<std::string>& environments);
// Each project with `environments`: [{name, version, updatedAt}], oldest project first.
core::Result<std::vector<json::object>> list_projects(App& app, std::string_view company_id);
// `not_found` for an unknown project or another company's.
core::Result<json::object> find_project(App& app, std::string_view company_id, std::string_view project_id);
core::Result<json::object> rename_project(App& app, const CompanyContext& ctx, std::string_view project_id,
                                          std::string_view name);
// Removes the project with its environments, versions, tokens and webhooks.
core::Status delete_project(App& app, const CompanyContext& ctx, std::string_view project_id);
// Errors: `not_found`, `invalid_field`, `conflict` (exists), `unprocessable` (past kMaxEnvironments).
core::Result<json::object> add_environment(App& app, const CompanyContext& ctx, std::string_view project_id,
                                           std::string_view env);
core::Result<json::object> find_environment(App& app, std::string_view company_id,
                                            std::string_view project_id, std::string_view env);
// Removes the environment with its versions and the tokens bound to it.
core::Status delete_environment(App& app, const CompanyContext& ctx, std::string_view project_id,
                                std::string_view env);

// ---- env tokens

struct CreatedToken {
  json::object record;  // the API view
  std::string plaintext;
};
core::Result<CreatedToken> create_token(App& app, const CompanyContext& ctx, std::string_view project_id,
                                        std::string_view name, std::string_view env, Access access);
core::Result<std::vector<json::object>> list_tokens(App& app, std::string_view company_id,
                                                    std::string_view project_id);
// Idempotent: revoking twice keeps the first time.
core::Result<json::object> revoke_token(App& app, const CompanyContext& ctx, std::string_view project_id,
                                        std::string_view token_id);

// What a live env token is bound to.
struct Binding {
  std::string company_id, project_id, environment, token_id;
  Access access = Access::full;
  // The audit log's view of the caller: the company (by id) and the token as the actor.
  CompanyContext audit_context() const;
};
// Errors (all 401 for the caller): `unknown_token`, `revoked_token`; `storage_error`.
core::Result<Binding> authenticate_env_token(App& app, std::string_view plaintext);

// ---- push, fetch, history

struct PushOutcome {
  std::int64_t version = 0, keys = 0;
  core::vault::Diff diff;
};
// Errors: `version_conflict` (message names the current version, put in *current_version), `not_found`
// (the environment was deleted), `too_many_variables`, `value_too_large`, `storage_error`.
core::Result<PushOutcome> push(App& app, const Binding& who, const core::vault::PushRequest& request,
                               std::int64_t* current_version);

struct Snapshot {
  std::int64_t version = 0;
  Variables variables;
};
// The current version and values (only the public ones when `only_public`); audits the read as
// `env-vault.fetch` or `env-vault.public` and notes the token's last use.
core::Result<Snapshot> fetch(App& app, const Binding& who, bool only_public);

// Change records of the environment, newest first.
core::Result<std::vector<json::object>> list_versions(App& app, std::string_view company_id,
                                                      std::string_view project_id, std::string_view env);
// One version: its change record with `variables`: [{key, public}] (names and flags, never values).
core::Result<json::object> find_version(App& app, std::string_view company_id, std::string_view project_id,
                                        std::string_view env, std::int64_t version);
// Key names added, removed and changed from version `from` to version `to` (0 is the empty start).
core::Result<core::vault::Diff> diff_versions(App& app, std::string_view company_id,
                                              std::string_view project_id, std::string_view env,
                                              std::int64_t from, std::int64_t to);
// A new version with the contents of `target`. `base_version` as in push.
core::Result<PushOutcome> rollback(App& app, const CompanyContext& ctx, std::string_view project_id,
                                   std::string_view env, std::int64_t target,
                                   std::optional<std::int64_t> base_version, std::int64_t* current_version);

// Change records with version > since, oldest first, at most `limit`; and the environment's version.
struct Changes {
  std::int64_t version = 0;
  std::vector<json::object> entries;
};
core::Result<Changes> changes_since(App& app, std::string_view project_id, std::string_view env,
                                    std::int64_t since, std::size_t limit);

}  // namespace edge::vault
