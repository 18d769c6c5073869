#pragma once
// Auth projects and their `aps_` keys (document 2, "Auth project API"; docs/auth-projects.md), in the
// `auth` table. Keys are readable paths. Everything of a project lives under `p/<pid>/`, tokens included
// (the end-user paths name the project, so a token is looked up under its project): one project's key or
// token is simply not found in another, and deleting a project is one range.
//
//   p/<pid>                        project: id, companyId, createdAt and its settings (core/auth)
//   slug/<slug>                    -> pid (slugs are platform-wide: the end-user paths name only them)
//   co/<cid>/<pid>                 -> "" (a company's projects)
//   p/<pid>/key/<sha256>           `aps_` key: id, name, tokenPrefix, createdAt, revokedAt
//   p/<pid>/key-id/<key id>        -> sha256 of the key
//   p/<pid>/sk/<kid>               signing key: private key PEM sealed, createdAt, retiredAt (signing_keys.h)
//   p/<pid>/u/<uid>                end user (end_users.h)
//   p/<pid>/ue/<email>             -> uid (email lower-cased)
//   p/<pid>/s/<sid>                session: the family of its refresh tokens (project_sessions.h)
//   p/<pid>/us/<uid>/<sid>         -> ""
//   p/<pid>/rt/<sha256>            refresh token (`apr_`)
//   p/<pid>/srt/<sid>/<sha256>     -> "" (a session's refresh tokens)
//   p/<pid>/lt/<sha256>            verify or reset link token (`apl_`, link_tokens.h)
//   p/<pid>/tk/<sha256>            login-step ticket (`apt_`: MFA)
//   ax/<16-digit ms>/<record key>  -> "": expiry index of tokens, tickets and ended sessions (auth_sweep.h),
//                                  outside `p/<pid>/`: deleting a project leaves its entries to the sweep

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/auth/project_settings.h"
#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

namespace json = core::json;

struct Project {
  std::string id, company_id;
  std::int64_t created_at = 0;
  core::auth::ProjectSettings settings;

  const std::string& slug() const { return settings.slug; }
};

struct ProjectKey {
  std::string id, project_id, name, token_prefix;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> revoked_at;
};

// `p/<pid>/` + `kind` + "/" + `rest`: the key of a record of the project.
inline std::string project_record_key(std::string_view pid, std::string_view kind,
                                      std::string_view rest = {}) {
  std::string k = "p/";
  k.append(pid).append("/").append(kind).append("/").append(rest);
  return k;
}

json::object to_record(const Project& p);
Project project_from_record(const json::object& rec);
// The dashboard's view: id, createdAt, the settings, and the project's public URLs.
json::object to_api(const App& app, const Project& p);
json::object to_api(const ProjectKey& k);

// Creates the project with its first signing key. Errors: those of core::auth::apply_project_settings,
// `conflict` (slug taken), `key_error`, `storage_error`.
core::Result<Project> create_project(App& app, const std::string& company_id, const json::object& body);
core::Result<std::vector<Project>> list_projects(App& app, const std::string& company_id);
// `not_found` for an id of another company.
core::Result<Project> find_project(App& app, const std::string& company_id, const std::string& project_id);
// The project a slug names, whatever its company (end-user paths). `not_found`.
core::Result<Project> project_by_slug(App& app, std::string_view slug);
// Applies the settings members of `body`. Errors as create_project, and `not_found`.
core::Result<Project> update_project(App& app, const std::string& company_id, const std::string& project_id,
                                     const json::object& body);
// Deletes the project and everything under it (users, sessions, tokens, keys) in one transaction.
core::Status delete_project(App& app, const std::string& company_id, const std::string& project_id);

// Keys: the plaintext comes back once, in `plaintext`.
core::Result<ProjectKey> create_key(App& app, const Project& project, std::string name,
                                    std::string& plaintext);
core::Result<std::vector<ProjectKey>> list_keys(App& app, const std::string& project_id);
// Idempotent: revoking again keeps the first revokedAt. `not_found`.
core::Result<ProjectKey> revoke_key(App& app, const std::string& project_id, const std::string& key_id);
// The live key of the project for a plaintext `aps_` key, or nullopt (unknown here, revoked, malformed).
core::Result<std::optional<ProjectKey>> key_for(App& app, const std::string& project_id,
                                                std::string_view plaintext);

}  // namespace edge::auth_projects
