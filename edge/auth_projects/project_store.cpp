#include "edge/auth_projects/project_store.h"

#include "core/auth/access_token.h"
#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "core/token.h"
#include "edge/app.h"
#include "edge/auth_projects/signing_keys.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

using core::make_error;

std::string project_key(std::string_view pid) {
  return "p/" + std::string(pid);
}

core::Error not_found() {
  return make_error("not_found", "auth project not found");
}

std::optional<Project> get_project(const store::ReadTxn& txn, store::Table t, std::string_view pid) {
  auto rec = record::get_object(txn, t, project_key(pid));
  if (!rec) return std::nullopt;
  return project_from_record(*rec);
}

ProjectKey key_from_record(const json::object& o) {
  return ProjectKey{record::str(o, "id"),        record::str(o, "projectId"),
                    record::str(o, "name"),      record::str(o, "tokenPrefix"),
                    record::num(o, "createdAt"), record::opt_num(o, "revokedAt")};
}

json::object key_record(const ProjectKey& k) {
  json::object o{{"id", k.id},
                 {"projectId", k.project_id},
                 {"name", k.name},
                 {"tokenPrefix", k.token_prefix},
                 {"createdAt", k.created_at}};
  if (k.revoked_at) o["revokedAt"] = *k.revoked_at;
  return o;
}

}  // namespace

json::object to_record(const Project& p) {
  json::object o = core::auth::to_json(p.settings);
  o["id"] = p.id;
  o["companyId"] = p.company_id;
  o["createdAt"] = p.created_at;
  return o;
}

Project project_from_record(const json::object& rec) {
  Project p;
  p.id = record::str(rec, "id");
  p.company_id = record::str(rec, "companyId");
  p.created_at = record::num(rec, "createdAt");
  json::object settings = rec;
  settings.erase("id");
  settings.erase("companyId");
  settings.erase("createdAt");
  p.settings = core::auth::project_settings_from_json(settings);
  return p;
}

json::object to_api(const App& app, const Project& p) {
  json::object o{{"id", p.id}};
  for (auto& member : core::auth::to_json(p.settings)) o[member.key()] = member.value();
  const std::string issuer = core::auth::project_issuer(app.config.auth_url, p.slug());
  o["issuer"] = issuer;
  o["jwksUrl"] = issuer + "/jwks.json";
  o["createdAt"] = core::format_timestamp(p.created_at);
  return o;
}

json::object to_api(const ProjectKey& k) {
  return json::object{{"id", k.id},
                      {"name", k.name},
                      {"tokenPrefix", k.token_prefix},
                      {"createdAt", core::format_timestamp(k.created_at)},
                      {"revokedAt", record::time_or_null(k.revoked_at)}};
}

core::Result<Project> create_project(App& app, const std::string& company_id, const json::object& body) {
  Project p;
  CORE_TRY(core::auth::apply_project_settings(p.settings, body, true));
  p.id = core::make_id("apj_", app.random);
  p.company_id = company_id;
  p.created_at = app.clock.now_ms();
  auto key = SigningKeys::new_key_pem();
  if (!key) return key.error();
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (txn.get(t, "slug/" + p.slug()))
      return make_error("conflict", "an auth project with slug '" + p.slug() + "' already exists");
    record::put_object(txn, t, project_key(p.id), to_record(p));
    txn.put(t, "slug/" + p.slug(), p.id);
    txn.put(t, "co/" + company_id + "/" + p.id, "");
    app.auth_signing_keys->put_new_key(txn, p.id, key->first, key->second, p.created_at,
                                       p.settings.access_token_ttl_s);
    return {};
  }));
  return p;
}

core::Result<std::vector<Project>> list_projects(App& app, const std::string& company_id) {
  std::vector<Project> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    const std::string prefix = "co/" + company_id + "/";
    txn.scan(app.auth_table, prefix, [&](std::string_view key, std::string_view) {
      if (auto p = get_project(txn, app.auth_table, key.substr(prefix.size()))) out.push_back(std::move(*p));
      return true;
    });
    return {};
  }));
  return out;
}

core::Result<Project> find_project(App& app, const std::string& company_id, const std::string& project_id) {
  std::optional<Project> p;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    p = get_project(txn, app.auth_table, project_id);
    return {};
  }));
  if (!p || p->company_id != company_id) return not_found();
  return std::move(*p);
}

core::Result<Project> project_by_slug(App& app, std::string_view slug) {
  std::optional<Project> p;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    if (auto pid = txn.get(app.auth_table, "slug/" + std::string(slug)))
      p = get_project(txn, app.auth_table, *pid);
    return {};
  }));
  if (!p) return not_found();
  return std::move(*p);
}

core::Result<Project> update_project(App& app, const std::string& company_id, const std::string& project_id,
                                     const json::object& body) {
  std::optional<Project> out;
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto p = get_project(txn, t, project_id);
    if (!p || p->company_id != company_id) return not_found();
    const std::string old_slug = p->slug();
    CORE_TRY(core::auth::apply_project_settings(p->settings, body, false));
    if (p->slug() != old_slug) {
      if (txn.get(t, "slug/" + p->slug()))
        return make_error("conflict", "an auth project with slug '" + p->slug() + "' already exists");
      txn.erase(t, "slug/" + old_slug);
      txn.put(t, "slug/" + p->slug(), p->id);
    }
    record::put_object(txn, t, project_key(p->id), to_record(*p));
    out = std::move(*p);
    return {};
  }));
  return std::move(*out);
}

core::Status delete_project(App& app, const std::string& company_id, const std::string& project_id) {
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto p = get_project(txn, t, project_id);
    if (!p || p->company_id != company_id) return not_found();
    std::vector<std::string> doomed;
    txn.scan(t, project_key(p->id) + "/", [&](std::string_view key, std::string_view) {
      doomed.emplace_back(key);
      return true;
    });
    for (const auto& key : doomed) txn.erase(t, key);
    txn.erase(t, project_key(p->id));
    txn.erase(t, "slug/" + p->slug());
    txn.erase(t, "co/" + company_id + "/" + p->id);
    return {};
  }));
  app.auth_signing_keys->forget(project_id);
  return {};
}

core::Result<ProjectKey> create_key(App& app, const Project& project, std::string name,
                                    std::string& plaintext) {
  plaintext = core::make_token(core::TokenKind::auth_project_key, app.random);
  ProjectKey k{core::make_id("apk_", app.random),     project.id,         std::move(name),
               core::token_display_prefix(plaintext), app.clock.now_ms(), std::nullopt};
  const std::string hash = core::sha256_hex(plaintext);
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(app.auth_table, project_key(project.id))) return not_found();
    record::put_object(txn, app.auth_table, project_record_key(project.id, "key", hash), key_record(k));
    txn.put(app.auth_table, project_record_key(project.id, "key-id", k.id), hash);
    return {};
  }));
  return k;
}

core::Result<std::vector<ProjectKey>> list_keys(App& app, const std::string& project_id) {
  std::vector<ProjectKey> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    txn.scan(
        app.auth_table, project_record_key(project_id, "key-id"),
        [&](std::string_view, std::string_view hash) {
          if (auto rec = record::get_object(txn, app.auth_table, project_record_key(project_id, "key", hash)))
            out.push_back(key_from_record(*rec));
          return true;
        });
    return {};
  }));
  return out;
}

core::Result<ProjectKey> revoke_key(App& app, const std::string& project_id, const std::string& key_id) {
  std::optional<ProjectKey> out;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto hash = txn.get(app.auth_table, project_record_key(project_id, "key-id", key_id));
    if (!hash) return make_error("not_found", "key not found");
    const std::string key = project_record_key(project_id, "key", *hash);
    auto rec = record::get_object(txn, app.auth_table, key);
    if (!rec) return make_error("not_found", "key not found");
    ProjectKey k = key_from_record(*rec);
    if (!k.revoked_at) {
      k.revoked_at = now;
      record::put_object(txn, app.auth_table, key, key_record(k));
    }
    out = std::move(k);
    return {};
  }));
  return std::move(*out);
}

core::Result<std::optional<ProjectKey>> key_for(App& app, const std::string& project_id,
                                                std::string_view plaintext) {
  std::optional<ProjectKey> out;
  if (!core::has_token_shape(core::TokenKind::auth_project_key, plaintext)) return out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    const std::string key = project_record_key(project_id, "key", core::sha256_hex(plaintext));
    if (auto rec = record::get_object(txn, app.auth_table, key)) {
      ProjectKey k = key_from_record(*rec);
      if (!k.revoked_at) out = std::move(k);
    }
    return {};
  }));
  return out;
}

}  // namespace edge::auth_projects
