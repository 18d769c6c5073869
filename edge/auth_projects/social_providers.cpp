#include "edge/auth_projects/social_providers.h"

#include <algorithm>

#include "core/date.h"
#include "core/id.h"
#include "core/scope.h"
#include "core/sealed.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/auth_projects/project_store.h"
#include "edge/auth_projects/social_identities.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

constexpr std::size_t kMaxNameBytes = 100, kMaxClientIdBytes = 255, kMaxSecretBytes = 1024, kMaxScopes = 20;

std::string provider_key(std::string_view pid, std::string_view provider_id) {
  return project_record_key(pid, "idp", provider_id);
}

json::object to_record(const SocialProvider& p, const std::string& sealed_secret) {
  return json::object{{"id", p.id},
                      {"projectId", p.project_id},
                      {"name", p.name},
                      {"issuer", p.issuer},
                      {"clientId", p.client_id},
                      {"clientSecret", sealed_secret},
                      {"scopes", record::array_of(p.scopes)},
                      {"createdAt", p.created_at},
                      {"updatedAt", p.updated_at}};
}

SocialProvider provider_from_record(const json::object& rec) {
  SocialProvider p;
  p.id = record::str(rec, "id");
  p.project_id = record::str(rec, "projectId");
  p.name = record::str(rec, "name");
  p.issuer = record::str(rec, "issuer");
  p.client_id = record::str(rec, "clientId");
  p.scopes = record::strs(rec, "scopes");
  p.created_at = record::num(rec, "createdAt");
  p.updated_at = record::num(rec, "updatedAt");
  return p;
}

core::Error invalid(std::string message) {
  return core::make_error("invalid_setting", std::move(message));
}

// A present text member within `max_bytes`, non-empty.
core::Status bounded_text(const std::optional<std::string>& value, std::string_view name,
                          std::size_t max_bytes) {
  if (value && (value->empty() || value->size() > max_bytes))
    return invalid("'" + std::string(name) + "' must be 1 to " + std::to_string(max_bytes) + " characters");
  return {};
}

core::Result<std::optional<std::string>> text_member(const json::object& body, std::string_view key,
                                                     bool required) {
  if (required) {
    auto v = core::require_string(body, key);
    if (!v) return v.error();
    return std::optional<std::string>(std::move(*v));
  }
  return core::optional_string(body, key);
}

}  // namespace

json::object to_api(const SocialProvider& p) {
  return json::object{{"id", p.id},
                      {"name", p.name},
                      {"issuer", p.issuer},
                      {"clientId", p.client_id},
                      {"scopes", record::array_of(p.scopes)},
                      {"createdAt", core::format_timestamp(p.created_at)},
                      {"updatedAt", core::format_timestamp(p.updated_at)}};
}

core::Result<ProviderFields> parse_provider_fields(const json::object& body, bool creating) {
  ProviderFields f;
  auto name = text_member(body, "name", creating);
  if (!name) return name.error();
  f.name = std::move(*name);
  auto issuer = text_member(body, "issuer", creating);
  if (!issuer) return issuer.error();
  f.issuer = std::move(*issuer);
  auto client_id = text_member(body, "clientId", creating);
  if (!client_id) return client_id.error();
  f.client_id = std::move(*client_id);
  auto secret = text_member(body, "clientSecret", creating);
  if (!secret) return secret.error();
  f.client_secret = std::move(*secret);
  auto scopes = core::optional_string_array(body, "scopes");
  if (!scopes) return scopes.error();
  f.scopes = std::move(*scopes);

  CORE_TRY(bounded_text(f.name, "name", kMaxNameBytes));
  CORE_TRY(bounded_text(f.client_id, "clientId", kMaxClientIdBytes));
  CORE_TRY(bounded_text(f.client_secret, "clientSecret", kMaxSecretBytes));
  if (f.issuer) {
    CORE_TRY(core::validate_http_url(*f.issuer));
    // Discovery appends its path to the issuer (OpenID Connect Discovery §4), and the issuer is compared
    // byte for byte with the provider's own, so it cannot carry a query.
    if (f.issuer->find('?') != std::string::npos)
      return core::make_error("invalid_url", "'issuer' must not have a query");
  }
  if (f.scopes) {
    // openid first, as every request sends it (OpenID Connect Core §3.1.2.1), then the others once each.
    std::vector<std::string> kept = {"openid"};
    for (const auto& s : *f.scopes) {
      if (s.empty() || s.find(' ') != std::string::npos || !core::parse_scope(s))
        return invalid("each of 'scopes' must be one OAuth scope token (RFC 6749 §3.3)");
      if (std::find(kept.begin(), kept.end(), s) == kept.end()) kept.push_back(s);
    }
    if (kept.size() > kMaxScopes) return invalid("at most " + std::to_string(kMaxScopes) + " scopes");
    f.scopes = std::move(kept);
  } else if (creating) {
    f.scopes = std::vector<std::string>{"openid", "email", "profile"};
  }
  return f;
}

core::Result<SocialProvider> create_provider(App& app, const Project& project, const ProviderFields& fields) {
  SocialProvider p;
  p.id = core::make_id("idp_", app.random);
  p.project_id = project.id;
  p.name = fields.name.value_or("");
  p.issuer = fields.issuer.value_or("");
  p.client_id = fields.client_id.value_or("");
  p.scopes = fields.scopes.value_or(std::vector<std::string>{});
  p.created_at = p.updated_at = app.clock.now_ms();
  const std::string key = provider_key(project.id, p.id);
  const std::string sealed = core::seal(app.secret_key, fields.client_secret.value_or(""), key, app.random);
  const store::Table t = app.auth_table;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, "p/" + project.id)) return core::make_error("not_found", "auth project not found");
    std::size_t count = 0;
    txn.scan(t, project_record_key(project.id, "idp"), [&](std::string_view, std::string_view) {
      ++count;
      return true;
    });
    if (count >= kMaxProvidersPerProject)
      return core::make_error("conflict", "a project has at most " + std::to_string(kMaxProvidersPerProject) +
                                              " social providers");
    record::put_object(txn, t, key, to_record(p, sealed));
    return {};
  }));
  return p;
}

core::Result<std::vector<SocialProvider>> list_providers(App& app, std::string_view pid) {
  std::vector<SocialProvider> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(app.auth_table, project_record_key(pid, "idp"), [&](std::string_view, std::string_view value) {
      if (auto rec = core::parse_json_object(value)) out.push_back(provider_from_record(*rec));
      return true;
    });
    return {};
  }));
  std::sort(out.begin(), out.end(), [](const SocialProvider& a, const SocialProvider& b) {
    return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
  });
  return out;
}

core::Result<SocialProvider> find_provider(App& app, std::string_view pid, std::string_view provider_id) {
  std::optional<SocialProvider> out;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    if (auto rec = record::get_object(txn, app.auth_table, provider_key(pid, provider_id)))
      out = provider_from_record(*rec);
    return {};
  }));
  if (!out) return core::make_error("not_found", "social provider not found");
  return std::move(*out);
}

core::Result<SocialProvider> update_provider(App& app, std::string_view pid, std::string_view provider_id,
                                             const ProviderFields& fields) {
  const std::string key = provider_key(pid, provider_id);
  std::optional<std::string> sealed;
  if (fields.client_secret) sealed = core::seal(app.secret_key, *fields.client_secret, key, app.random);
  const std::int64_t now = app.clock.now_ms();
  std::optional<SocialProvider> out;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, app.auth_table, key);
    if (!rec) return core::make_error("not_found", "social provider not found");
    SocialProvider p = provider_from_record(*rec);
    if (fields.name) p.name = *fields.name;
    if (fields.issuer) p.issuer = *fields.issuer;
    if (fields.client_id) p.client_id = *fields.client_id;
    if (fields.scopes) p.scopes = *fields.scopes;
    p.updated_at = now;
    record::put_object(txn, app.auth_table, key,
                       to_record(p, sealed.value_or(record::str(*rec, "clientSecret"))));
    out = std::move(p);
    return {};
  }));
  return std::move(*out);
}

core::Status delete_provider(App& app, std::string_view pid, std::string_view provider_id) {
  const store::Table t = app.auth_table;
  const std::string key = provider_key(pid, provider_id);
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.get(t, key)) return core::make_error("not_found", "social provider not found");
    // Identities through this provider: each index entry names its user, and its last path segment is the
    // hash that names the user's identity record.
    const std::string prefix = identity_index_prefix(pid, provider_id);
    std::vector<std::pair<std::string, std::string>> doomed;  // index key, user id
    txn.scan(t, prefix, [&](std::string_view k, std::string_view uid) {
      doomed.emplace_back(std::string(k), std::string(uid));
      return true;
    });
    for (const auto& [index_key, uid] : doomed) {
      txn.erase(
          t, identity_record_key(pid, uid, provider_id, std::string_view(index_key).substr(prefix.size())));
      txn.erase(t, index_key);
    }
    txn.erase(t, key);
    return {};
  });
}

core::Result<std::string> provider_client_secret(App& app, const SocialProvider& provider) {
  std::optional<std::string> sealed;
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    if (auto rec = record::get_object(txn, app.auth_table, provider_key(provider.project_id, provider.id)))
      sealed = record::str(*rec, "clientSecret");
    return {};
  }));
  if (!sealed) return core::make_error("not_found", "social provider not found");
  return core::unseal(app.secret_key, *sealed, provider_key(provider.project_id, provider.id));
}

}  // namespace edge::auth_projects
