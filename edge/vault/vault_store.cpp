#include "edge/vault/vault_store.h"

#include <cstdio>

#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "core/sealed.h"
#include "core/token.h"
#include "edge/app.h"
#include "edge/platform/audit_log.h"
#include "edge/platform/record_json.h"
#include "edge/vault/vault_runtime.h"
#include "edge/vault/vault_webhooks.h"

namespace edge::vault {

namespace {

using core::make_error;

std::string project_key(std::string_view company_id, std::string_view project_id) {
  return "p/" + std::string(company_id) + "/" + std::string(project_id);
}
std::string env_key(std::string_view project_id, std::string_view env) {
  return "e/" + std::string(project_id) + "/" + std::string(env);
}
std::string env_prefix(std::string_view project_id) {
  return "e/" + std::string(project_id) + "/";
}
std::string version_text(std::int64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%010lld", static_cast<long long>(v));
  return buf;
}
std::string snapshot_key(std::string_view project_id, std::string_view env, std::int64_t v) {
  return "s/" + std::string(project_id) + "/" + std::string(env) + "/" + version_text(v);
}
std::string change_prefix(std::string_view project_id, std::string_view env) {
  return "c/" + std::string(project_id) + "/" + std::string(env) + "/";
}
std::string change_key(std::string_view project_id, std::string_view env, std::int64_t v) {
  return change_prefix(project_id, env) + version_text(v);
}
std::string token_key(std::string_view project_id, std::string_view token_id) {
  return "t/" + std::string(project_id) + "/" + std::string(token_id);
}
std::string token_hash_key(std::string_view hash) {
  return "th/" + std::string(hash);
}
std::string associated(std::string_view project_id, std::string_view env, std::string_view key,
                       std::int64_t sv) {
  return "env-vault/" + std::string(project_id) + "/" + std::string(env) + "/" + std::string(key) + "/" +
         std::to_string(sv);
}

core::Error not_found(std::string_view what) {
  return make_error("not_found", std::string(what) + " not found");
}

core::Status validate_name(std::string_view name) {
  if (name.empty() || name.size() > 100)
    return make_error("invalid_field", "'name' must be a string of 1 to 100 characters");
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f)
      return make_error("invalid_field", "'name' must not contain control characters");
  return {};
}

json::object actor_of(const CompanyContext& ctx) {
  return json::object{{"kind", ctx.principal.kind == Principal::Kind::user ? "user" : "token"},
                      {"id", ctx.principal.id}};
}

// Erases every key under `prefix` (inside the caller's transaction).
void erase_prefix(store::WriteTxn& txn, store::Table t, const std::string& prefix) {
  std::vector<std::string> keys;
  txn.scan(t, prefix, [&](std::string_view k, std::string_view) {
    keys.emplace_back(k);
    return true;
  });
  for (auto& k : keys) txn.erase(t, k);
}

json::object token_to_api(const json::object& rec) {
  return json::object{{"id", record::str(rec, "id")},
                      {"projectId", record::str(rec, "projectId")},
                      {"environment", record::str(rec, "environment")},
                      {"name", record::str(rec, "name")},
                      {"access", record::str(rec, "access")},
                      {"tokenPrefix", record::str(rec, "tokenPrefix")},
                      {"createdAt", record::time_or_null(record::opt_num(rec, "createdAtMs"))},
                      {"createdBy", record::str(rec, "createdBy")},
                      {"lastUsedAt", record::time_or_null(record::opt_num(rec, "lastUsedAtMs"))},
                      {"revokedAt", record::time_or_null(record::opt_num(rec, "revokedAtMs"))}};
}

json::object env_to_api(const json::object& rec) {
  return json::object{{"name", record::str(rec, "name")},
                      {"version", record::num(rec, "version")},
                      {"createdAt", record::time_or_null(record::opt_num(rec, "createdAtMs"))},
                      {"updatedAt", record::time_or_null(record::opt_num(rec, "updatedAtMs"))}};
}

json::object project_to_api(const json::object& rec, json::array environments) {
  return json::object{{"id", record::str(rec, "id")},
                      {"name", record::str(rec, "name")},
                      {"environments", std::move(environments)},
                      {"createdAt", record::time_or_null(record::opt_num(rec, "createdAtMs"))},
                      {"updatedAt", record::time_or_null(record::opt_num(rec, "updatedAtMs"))}};
}

json::array environments_of(const store::ReadTxn& txn, store::Table t, std::string_view project_id) {
  json::array out;
  txn.scan(t, env_prefix(project_id), [&](std::string_view, std::string_view value) {
    if (auto rec = core::parse_json_object(value)) out.emplace_back(env_to_api(*rec));
    return true;
  });
  return out;
}

// The sealed entries of a snapshot ({KEY: {sealed, public, sv}}), empty for version 0 or a missing one.
json::object snapshot_entries(const store::ReadTxn& txn, store::Table t, std::string_view project_id,
                              std::string_view env, std::int64_t version) {
  if (version <= 0) return {};
  auto snap = record::get_object(txn, t, snapshot_key(project_id, env, version));
  if (!snap) return {};
  if (auto* v = snap->if_contains("variables"); v && v->is_object()) return v->get_object();
  return {};
}

core::Result<Variables> unseal_entries(const App& app, std::string_view project_id, std::string_view env,
                                       const json::object& entries, bool only_public) {
  Variables out;
  for (const auto& [k, v] : entries) {
    if (!v.is_object()) continue;
    const auto& e = v.get_object();
    const bool is_public = record::boolean(e, "public");
    if (only_public && !is_public) continue;
    const std::string key(k);
    auto plain = core::unseal(app.secret_key, record::str(e, "sealed"),
                              associated(project_id, env, key, record::num(e, "sv")));
    if (!plain) return plain.error();
    out.emplace(key, core::vault::Variable{std::move(*plain), is_public});
  }
  return out;
}

// Writes version current+1 of the environment holding `next`, inside the caller's transaction: the snapshot
// (values unchanged since the current version keep their sealed text), the change record, the environment's
// new version, the audit entry and the webhook outbox jobs. `env_rec` is the environment as read in `txn`.
struct Commit {
  std::int64_t version = 0;
  core::vault::Diff diff;
  json::object change;
};
core::Result<Commit> commit_version(App& app, store::WriteTxn& txn, std::string_view company_id,
                                    std::string_view project_id, std::string_view env, json::object env_rec,
                                    const Variables& next, std::string_view kind, const CompanyContext& actor,
                                    std::int64_t now, std::string_view audit_id,
                                    std::optional<std::int64_t> rolled_back_to) {
  const store::Table t = app.vault_table;
  const std::int64_t current = record::num(env_rec, "version");
  const std::int64_t version = current + 1;
  json::object old_entries = snapshot_entries(txn, t, project_id, env, current);
  auto before = unseal_entries(app, project_id, env, old_entries, false);
  if (!before) return before.error();
  Commit out;
  out.version = version;
  out.diff = core::vault::diff(*before, next);
  json::object entries;
  for (const auto& [key, var] : next) {
    auto old = before->find(key);
    if (old != before->end() && old->second == var) {
      entries[key] = old_entries.at(key);
      continue;
    }
    entries[key] = json::object{{"sealed", core::seal(app.secret_key, var.value,
                                                      associated(project_id, env, key, version), app.random)},
                                {"public", var.is_public},
                                {"sv", version}};
  }
  record::put_object(txn, t, snapshot_key(project_id, env, version),
                     json::object{{"version", version}, {"variables", std::move(entries)}});
  json::object change{{"version", version},
                      {"at", core::format_timestamp(now)},
                      {"kind", kind},
                      {"actor", actor_of(actor)},
                      {"keys", static_cast<std::int64_t>(next.size())}};
  for (auto& [k, v] : core::vault::diff_to_json(out.diff)) change[k] = v;
  if (rolled_back_to) change["rolledBackTo"] = *rolled_back_to;
  record::put_object(txn, t, change_key(project_id, env, version), change);
  env_rec["version"] = version;
  env_rec["updatedAtMs"] = now;
  record::put_object(txn, t, env_key(project_id, env), env_rec);

  json::object details{{"projectId", project_id}, {"environment", env}, {"version", version}};
  for (auto& [k, v] : core::vault::diff_to_json(out.diff)) details[k] = v;
  if (rolled_back_to) details["rolledBackTo"] = *rolled_back_to;
  append_audit(txn, app.audit_table, actor, AuditEntry{"env-vault." + std::string(kind), std::move(details)},
               audit_id, now);
  enqueue_change_webhooks(app, txn, company_id, project_id, env, change, now);
  out.change = std::move(change);
  return out;
}

core::Error version_conflict(std::int64_t base, std::int64_t current) {
  return make_error("version_conflict", "baseVersion " + std::to_string(base) +
                                            " is stale: the current version is " + std::to_string(current));
}

// Notes the token's last use inside a write that happens anyway.
void note_token_use(store::WriteTxn& txn, store::Table t, const Binding& who, std::int64_t now) {
  const std::string key = token_key(who.project_id, who.token_id);
  if (auto rec = record::get_object(txn, t, key)) {
    (*rec)["lastUsedAtMs"] = now;
    record::put_object(txn, t, key, *rec);
  }
}

}  // namespace

std::optional<Access> parse_access(std::string_view text) {
  if (text == "full") return Access::full;
  if (text == "read") return Access::read;
  if (text == "public") return Access::public_only;
  return std::nullopt;
}

std::string_view access_name(Access a) {
  switch (a) {
    case Access::full:
      return "full";
    case Access::read:
      return "read";
    case Access::public_only:
      return "public";
  }
  return "full";
}

core::Status validate_environment(std::string_view name) {
  bool ok = !name.empty() && name.size() <= 32;
  for (std::size_t i = 0; ok && i < name.size(); ++i) {
    const char c = name[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    ok = alnum || (i > 0 && (c == '-' || c == '_'));
  }
  if (!ok)
    return make_error("invalid_field",
                      "environment name must match [a-z0-9][a-z0-9_-]{0,31} (lower case, e.g. production)");
  return {};
}

CompanyContext Binding::audit_context() const {
  CompanyContext ctx;
  ctx.company.id = company_id;
  ctx.principal = Principal{Principal::Kind::token, token_id, core::Role::member, {}};
  return ctx;
}

// ---- projects and environments

core::Result<json::object> create_project(App& app, const CompanyContext& ctx, std::string_view name,
                                          const std::vector<std::string>& environments) {
  if (auto st = validate_name(name); !st.ok()) return st.error();
  std::vector<std::string> envs = environments.empty() ? kDefaultEnvironments : environments;
  if (envs.size() > kMaxEnvironments)
    return make_error("invalid_field",
                      "a project has at most " + std::to_string(kMaxEnvironments) + " environments");
  for (std::size_t i = 0; i < envs.size(); ++i) {
    if (auto st = validate_environment(envs[i]); !st.ok()) return st.error();
    for (std::size_t j = 0; j < i; ++j)
      if (envs[j] == envs[i])
        return make_error("invalid_field", "environment '" + envs[i] + "' is named twice");
  }
  const std::int64_t now = app.clock.now_ms();
  const std::string id = core::make_time_ordered_id("vpr_", now, app.random);
  const std::string audit_id = core::make_id("aud_", app.random);
  json::object rec{{"id", id}, {"name", name}, {"createdAtMs", now}, {"updatedAtMs", now}};
  json::array env_list;
  const store::Table t = app.vault_table;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    env_list.clear();
    record::put_object(txn, t, project_key(ctx.company.id, id), rec);
    for (const auto& e : envs) {
      json::object er{{"name", e}, {"version", 0}, {"createdAtMs", now}, {"updatedAtMs", now}};
      record::put_object(txn, t, env_key(id, e), er);
    }
    env_list = environments_of(txn, t, id);
    append_audit(txn, app.audit_table, ctx,
                 AuditEntry{"env-vault.project.create", json::object{{"projectId", id}, {"name", name}}},
                 audit_id, now);
    return {};
  });
  if (!st.ok()) return st.error();
  return project_to_api(rec, std::move(env_list));
}

core::Result<std::vector<json::object>> list_projects(App& app, std::string_view company_id) {
  std::vector<json::object> out;
  const store::Table t = app.vault_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(t, "p/" + std::string(company_id) + "/", [&](std::string_view, std::string_view value) {
      if (auto rec = core::parse_json_object(value))
        out.push_back(project_to_api(*rec, environments_of(txn, t, record::str(*rec, "id"))));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Result<json::object> find_project(App& app, std::string_view company_id, std::string_view project_id) {
  std::optional<json::object> out;
  const store::Table t = app.vault_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, t, project_key(company_id, project_id));
    if (!rec) return not_found("vault project");
    out = project_to_api(*rec, environments_of(txn, t, project_id));
    return {};
  });
  if (!st.ok()) return st.error();
  return std::move(*out);
}

core::Result<json::object> rename_project(App& app, const CompanyContext& ctx, std::string_view project_id,
                                          std::string_view name) {
  if (auto st = validate_name(name); !st.ok()) return st.error();
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  json::object out;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, t, project_key(ctx.company.id, project_id));
    if (!rec) return not_found("vault project");
    (*rec)["name"] = name;
    (*rec)["updatedAtMs"] = now;
    record::put_object(txn, t, project_key(ctx.company.id, project_id), *rec);
    append_audit(
        txn, app.audit_table, ctx,
        AuditEntry{"env-vault.project.rename", json::object{{"projectId", project_id}, {"name", name}}},
        audit_id, now);
    out = project_to_api(*rec, environments_of(txn, t, project_id));
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

namespace {
// Erases the tokens of `project_id` (bound to `env`, or all when empty) with their lookup entries.
void erase_tokens(store::WriteTxn& txn, store::Table t, std::string_view project_id, std::string_view env) {
  std::vector<std::pair<std::string, std::string>> doomed;  // record key, hash
  txn.scan(t, "t/" + std::string(project_id) + "/", [&](std::string_view k, std::string_view value) {
    auto rec = core::parse_json_object(value);
    if (rec && (env.empty() || record::str(*rec, "environment") == env))
      doomed.emplace_back(std::string(k), record::str(*rec, "tokenHash"));
    return true;
  });
  for (auto& [k, h] : doomed) {
    txn.erase(t, k);
    txn.erase(t, token_hash_key(h));
  }
}
}  // namespace

core::Status delete_project(App& app, const CompanyContext& ctx, std::string_view project_id) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  const std::string pid(project_id);
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(t, project_key(ctx.company.id, pid))) return not_found("vault project");
    erase_tokens(txn, t, pid, {});
    for (const char* kind : {"e/", "s/", "c/", "w/"}) erase_prefix(txn, t, kind + pid + "/");
    append_audit(txn, app.audit_table, ctx,
                 AuditEntry{"env-vault.project.delete", json::object{{"projectId", pid}}}, audit_id, now);
    return {};
  });
}

core::Result<json::object> add_environment(App& app, const CompanyContext& ctx, std::string_view project_id,
                                           std::string_view env) {
  if (auto st = validate_environment(env); !st.ok()) return st.error();
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  json::object er{{"name", env}, {"version", 0}, {"createdAtMs", now}, {"updatedAtMs", now}};
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, project_key(ctx.company.id, project_id))) return not_found("vault project");
    if (txn.get(t, env_key(project_id, env)))
      return make_error("conflict", "environment '" + std::string(env) + "' already exists");
    if (environments_of(txn, t, project_id).size() >= kMaxEnvironments)
      return make_error("unprocessable",
                        "a project has at most " + std::to_string(kMaxEnvironments) + " environments");
    record::put_object(txn, t, env_key(project_id, env), er);
    append_audit(txn, app.audit_table, ctx,
                 AuditEntry{"env-vault.environment.create",
                            json::object{{"projectId", project_id}, {"environment", env}}},
                 audit_id, now);
    return {};
  });
  if (!st.ok()) return st.error();
  return env_to_api(er);
}

core::Result<json::object> find_environment(App& app, std::string_view company_id,
                                            std::string_view project_id, std::string_view env) {
  std::optional<json::object> out;
  const store::Table t = app.vault_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    if (!txn.get(t, project_key(company_id, project_id))) return not_found("vault project");
    auto rec = record::get_object(txn, t, env_key(project_id, env));
    if (!rec) return not_found("environment");
    out = env_to_api(*rec);
    return {};
  });
  if (!st.ok()) return st.error();
  return std::move(*out);
}

core::Status delete_environment(App& app, const CompanyContext& ctx, std::string_view project_id,
                                std::string_view env) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  const std::string pid(project_id), e(env);
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, project_key(ctx.company.id, pid))) return not_found("vault project");
    if (!txn.erase(t, env_key(pid, e))) return not_found("environment");
    erase_tokens(txn, t, pid, e);
    erase_prefix(txn, t, "s/" + pid + "/" + e + "/");
    erase_prefix(txn, t, "c/" + pid + "/" + e + "/");
    append_audit(
        txn, app.audit_table, ctx,
        AuditEntry{"env-vault.environment.delete", json::object{{"projectId", pid}, {"environment", e}}},
        audit_id, now);
    return {};
  });
}

// ---- tokens

core::Result<CreatedToken> create_token(App& app, const CompanyContext& ctx, std::string_view project_id,
                                        std::string_view name, std::string_view env, Access access) {
  if (auto st = validate_name(name); !st.ok()) return st.error();
  if (auto st = validate_environment(env); !st.ok()) return st.error();
  const std::int64_t now = app.clock.now_ms();
  CreatedToken out;
  out.plaintext = core::make_token(core::TokenKind::env_vault_token, app.random);
  const std::string hash = core::sha256_hex(out.plaintext);
  const std::string id = core::make_time_ordered_id("vtk_", now, app.random);
  const std::string audit_id = core::make_id("aud_", app.random);
  json::object rec{{"id", id},
                   {"projectId", project_id},
                   {"environment", env},
                   {"name", name},
                   {"access", access_name(access)},
                   {"tokenPrefix", core::token_display_prefix(out.plaintext)},
                   {"tokenHash", hash},
                   {"createdAtMs", now},
                   {"createdBy", ctx.principal.id}};
  const store::Table t = app.vault_table;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, project_key(ctx.company.id, project_id))) return not_found("vault project");
    if (!txn.get(t, env_key(project_id, env)))
      return make_error("invalid_field", "the project has no environment '" + std::string(env) + "'");
    std::size_t count = 0;
    txn.scan(t, "t/" + std::string(project_id) + "/", [&](std::string_view, std::string_view) {
      ++count;
      return true;
    });
    if (count >= kMaxTokensPerProject)
      return make_error("unprocessable",
                        "a project has at most " + std::to_string(kMaxTokensPerProject) + " env tokens");
    record::put_object(txn, t, token_key(project_id, id), rec);
    record::put_object(
        txn, t, token_hash_key(hash),
        json::object{{"companyId", ctx.company.id}, {"projectId", project_id}, {"tokenId", id}});
    append_audit(txn, app.audit_table, ctx,
                 AuditEntry{"env-vault.token.create", json::object{{"projectId", project_id},
                                                                   {"environment", env},
                                                                   {"tokenId", id},
                                                                   {"access", access_name(access)}}},
                 audit_id, now);
    return {};
  });
  if (!st.ok()) return st.error();
  out.record = token_to_api(rec);
  return out;
}

core::Result<std::vector<json::object>> list_tokens(App& app, std::string_view company_id,
                                                    std::string_view project_id) {
  std::vector<json::object> out;
  const store::Table t = app.vault_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    if (!txn.get(t, project_key(company_id, project_id))) return not_found("vault project");
    txn.scan(t, "t/" + std::string(project_id) + "/", [&](std::string_view, std::string_view value) {
      if (auto rec = core::parse_json_object(value)) out.push_back(token_to_api(*rec));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Result<json::object> revoke_token(App& app, const CompanyContext& ctx, std::string_view project_id,
                                        std::string_view token_id) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  json::object out;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, project_key(ctx.company.id, project_id))) return not_found("vault project");
    auto rec = record::get_object(txn, t, token_key(project_id, token_id));
    if (!rec) return not_found("env token");
    if (!record::opt_num(*rec, "revokedAtMs")) {
      (*rec)["revokedAtMs"] = now;
      record::put_object(txn, t, token_key(project_id, token_id), *rec);
      append_audit(txn, app.audit_table, ctx,
                   AuditEntry{"env-vault.token.revoke",
                              json::object{{"projectId", project_id}, {"tokenId", token_id}}},
                   audit_id, now);
    }
    out = token_to_api(*rec);
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Result<Binding> authenticate_env_token(App& app, std::string_view plaintext) {
  const std::string hash = core::sha256_hex(plaintext);
  const store::Table t = app.vault_table;
  Binding out;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto index = record::get_object(txn, t, token_hash_key(hash));
    if (!index) return make_error("unknown_token", "unknown env vault token");
    auto rec = record::get_object(
        txn, t, token_key(record::str(*index, "projectId"), record::str(*index, "tokenId")));
    // The lookup is by hash; comparing the stored hash again in constant time costs nothing and keeps a
    // damaged index from ever authenticating another token.
    if (!rec || !core::constant_time_equal(record::str(*rec, "tokenHash"), hash))
      return make_error("unknown_token", "unknown env vault token");
    if (record::opt_num(*rec, "revokedAtMs")) return make_error("revoked_token", "env vault token revoked");
    out.company_id = record::str(*index, "companyId");
    out.project_id = record::str(*rec, "projectId");
    out.environment = record::str(*rec, "environment");
    out.token_id = record::str(*rec, "id");
    out.access = parse_access(record::str(*rec, "access")).value_or(Access::public_only);
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

// ---- push, fetch, history

core::Result<PushOutcome> push(App& app, const Binding& who, const core::vault::PushRequest& request,
                               std::int64_t* current_version) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  const CompanyContext actor = who.audit_context();
  PushOutcome out;
  json::object change;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto env_rec = record::get_object(txn, t, env_key(who.project_id, who.environment));
    if (!env_rec) return not_found("environment");
    const std::int64_t current = record::num(*env_rec, "version");
    if (current_version) *current_version = current;
    if (request.base_version && *request.base_version != current)
      return version_conflict(*request.base_version, current);
    auto before = unseal_entries(app, who.project_id, who.environment,
                                 snapshot_entries(txn, t, who.project_id, who.environment, current), false);
    if (!before) return before.error();
    auto next = core::vault::merge_push(*before, request);
    if (!next) return next.error();
    auto commit = commit_version(app, txn, who.company_id, who.project_id, who.environment,
                                 std::move(*env_rec), *next, "push", actor, now, audit_id, std::nullopt);
    if (!commit) return commit.error();
    note_token_use(txn, t, who, now);
    out.version = commit->version;
    out.keys = static_cast<std::int64_t>(next->size());
    out.diff = std::move(commit->diff);
    change = std::move(commit->change);
    return {};
  });
  if (!st.ok()) return st.error();
  if (app.vault) app.vault->changed(who.project_id, who.environment, change);
  return out;
}

core::Result<Snapshot> fetch(App& app, const Binding& who, bool only_public) {
  const store::Table t = app.vault_table;
  Snapshot out;
  json::object entries;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto env_rec = record::get_object(txn, t, env_key(who.project_id, who.environment));
    if (!env_rec) return not_found("environment");
    out.version = record::num(*env_rec, "version");
    entries = snapshot_entries(txn, t, who.project_id, who.environment, out.version);
    return {};
  });
  if (!st.ok()) return st.error();
  auto vars = unseal_entries(app, who.project_id, who.environment, entries, only_public);
  if (!vars) return vars.error();
  out.variables = std::move(*vars);
  // The read is acknowledged only once its audit entry is durable: no fetch goes unrecorded.
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const CompanyContext actor = who.audit_context();
  json::array keys;
  for (const auto& [k, v] : out.variables) keys.emplace_back(k);
  auto audited = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    append_audit(txn, app.audit_table, actor,
                 AuditEntry{only_public ? "env-vault.public" : "env-vault.fetch",
                            json::object{{"projectId", who.project_id},
                                         {"environment", who.environment},
                                         {"version", out.version},
                                         {"keys", keys}}},
                 audit_id, now);
    note_token_use(txn, t, who, now);
    return {};
  });
  if (!audited.ok()) return audited.error();
  return out;
}

core::Result<std::vector<json::object>> list_versions(App& app, std::string_view company_id,
                                                      std::string_view project_id, std::string_view env) {
  std::vector<json::object> out;
  const store::Table t = app.vault_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    if (!txn.get(t, project_key(company_id, project_id))) return not_found("vault project");
    if (!txn.get(t, env_key(project_id, env))) return not_found("environment");
    txn.scan(t, change_prefix(project_id, env), [&](std::string_view, std::string_view value) {
      if (auto rec = core::parse_json_object(value)) out.push_back(std::move(*rec));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  std::reverse(out.begin(), out.end());
  return out;
}

namespace {
// The sealed entries of `version` of an environment of the company's project, checked in one snapshot.
core::Result<json::object> version_entries(App& app, std::string_view company_id, std::string_view project_id,
                                           std::string_view env, std::int64_t version, json::object* change) {
  const store::Table t = app.vault_table;
  json::object entries;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    if (!txn.get(t, project_key(company_id, project_id))) return not_found("vault project");
    auto env_rec = record::get_object(txn, t, env_key(project_id, env));
    if (!env_rec) return not_found("environment");
    if (version < 0 || version > record::num(*env_rec, "version"))
      return not_found("version " + std::to_string(version));
    if (version > 0) {
      auto c = record::get_object(txn, t, change_key(project_id, env, version));
      if (!c) return not_found("version " + std::to_string(version));
      if (change) *change = std::move(*c);
    }
    entries = snapshot_entries(txn, t, project_id, env, version);
    return {};
  });
  if (!st.ok()) return st.error();
  return entries;
}
}  // namespace

core::Result<json::object> find_version(App& app, std::string_view company_id, std::string_view project_id,
                                        std::string_view env, std::int64_t version) {
  if (version < 1) return not_found("version " + std::to_string(version));
  json::object change;
  auto entries = version_entries(app, company_id, project_id, env, version, &change);
  if (!entries) return entries.error();
  json::array vars;
  for (const auto& [k, v] : *entries)
    vars.emplace_back(
        json::object{{"key", k}, {"public", v.is_object() && record::boolean(v.get_object(), "public")}});
  change["variables"] = std::move(vars);
  return change;
}

core::Result<core::vault::Diff> diff_versions(App& app, std::string_view company_id,
                                              std::string_view project_id, std::string_view env,
                                              std::int64_t from, std::int64_t to) {
  auto a = version_entries(app, company_id, project_id, env, from, nullptr);
  if (!a) return a.error();
  auto b = version_entries(app, company_id, project_id, env, to, nullptr);
  if (!b) return b.error();
  // Values are compared opened, inside this process; only the key names leave it.
  auto va = unseal_entries(app, project_id, env, *a, false);
  if (!va) return va.error();
  auto vb = unseal_entries(app, project_id, env, *b, false);
  if (!vb) return vb.error();
  return core::vault::diff(*va, *vb);
}

core::Result<PushOutcome> rollback(App& app, const CompanyContext& ctx, std::string_view project_id,
                                   std::string_view env, std::int64_t target,
                                   std::optional<std::int64_t> base_version, std::int64_t* current_version) {
  const std::int64_t now = app.clock.now_ms();
  const std::string audit_id = core::make_id("aud_", app.random);
  const store::Table t = app.vault_table;
  const std::string pid(project_id), e(env);
  PushOutcome out;
  json::object change;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, project_key(ctx.company.id, pid))) return not_found("vault project");
    auto env_rec = record::get_object(txn, t, env_key(pid, e));
    if (!env_rec) return not_found("environment");
    const std::int64_t current = record::num(*env_rec, "version");
    if (current_version) *current_version = current;
    if (base_version && *base_version != current) return version_conflict(*base_version, current);
    if (target < 1 || target > current) return not_found("version " + std::to_string(target));
    auto wanted = unseal_entries(app, pid, e, snapshot_entries(txn, t, pid, e, target), false);
    if (!wanted) return wanted.error();
    auto commit = commit_version(app, txn, ctx.company.id, pid, e, std::move(*env_rec), *wanted, "rollback",
                                 ctx, now, audit_id, target);
    if (!commit) return commit.error();
    out.version = commit->version;
    out.keys = static_cast<std::int64_t>(wanted->size());
    out.diff = std::move(commit->diff);
    change = std::move(commit->change);
    return {};
  });
  if (!st.ok()) return st.error();
  if (app.vault) app.vault->changed(pid, e, change);
  return out;
}

core::Result<Changes> changes_since(App& app, std::string_view project_id, std::string_view env,
                                    std::int64_t since, std::size_t limit) {
  const store::Table t = app.vault_table;
  Changes out;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.entries.clear();
    auto env_rec = record::get_object(txn, t, env_key(project_id, env));
    if (!env_rec) return not_found("environment");
    out.version = record::num(*env_rec, "version");
    const std::string prefix = change_prefix(project_id, env);
    txn.scan(
        t, prefix,
        [&](std::string_view, std::string_view value) {
          if (auto rec = core::parse_json_object(value)) out.entries.push_back(std::move(*rec));
          return out.entries.size() < limit;
        },
        since > 0 ? prefix + version_text(since) : std::string());
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

}  // namespace edge::vault
