// The env vault's management API (docs/env-vault.md, "Management API"): projects, environments, env
// tokens, versions (history, diff, rollback), change webhooks and the audit log, under
// /api/companies/{slug}/env-vault. Reads need env-vault.view, writes env-vault.manage (which grants view).

#include "edge/vault/vault_routes.h"

#include "core/vault/variables.h"
#include "edge/app.h"
#include "edge/platform/audit_log.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"
#include "edge/platform/record_json.h"
#include "edge/vault/vault_store.h"
#include "edge/vault/vault_webhooks.h"

namespace edge::vault {
namespace {

constexpr std::string_view kView = "env-vault.view";
constexpr std::string_view kManage = "env-vault.manage";

std::string path(std::string_view rest) {
  return "/api/companies/{slug}/env-vault" + std::string(rest);
}

Response with_total(json::array items, std::size_t total) {
  Response r = envelope_ok(std::move(items));
  r.set_header("X-Total-Count", std::to_string(total));
  return r;
}

template <class Vec>
Response paged(Request& req, const Vec& all) {
  auto paging = parse_paging(req);
  if (!paging) return envelope_error(paging.error());
  json::array out;
  for (const auto& o : paging->apply(all)) out.emplace_back(o);
  return with_total(std::move(out), all.size());
}

core::Result<json::object> body_object(const Request& req) {
  if (req.body.empty()) return json::object{};
  return core::parse_json_object(req.body);
}

// A version number from a path parameter or query value: a non-negative integer.
std::optional<std::int64_t> parse_version(std::string_view text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// The 409 of a stale baseVersion: the envelope has room for a message only, so the current version is in
// the message and in the X-Vault-Version header.
Response conflict(const core::Error& e, std::int64_t current) {
  Response r = envelope_error(409, e.message);
  r.set_header("X-Vault-Version", std::to_string(current));
  return r;
}

json::object outcome_to_api(const PushOutcome& o) {
  return json::object{{"version", o.version},
                      {"keys", o.keys},
                      {"added", static_cast<std::int64_t>(o.diff.added.size())},
                      {"changed", static_cast<std::int64_t>(o.diff.changed.size())},
                      {"removed", static_cast<std::int64_t>(o.diff.removed.size())}};
}

void add(App& app, const std::string& method, std::string_view rest, std::string_view permission,
         CompanyHandler h, RouteOptions options = {}) {
  app.router.add(method, path(rest), company_route(app, std::string(permission), std::move(h)), options);
}

Response create_project_route(App& app, Request& req, const CompanyContext& ctx) {
  auto body = body_object(req);
  if (!body) return envelope_error(body.error());
  auto name = core::require_string(*body, "name");
  if (!name) return envelope_error(name.error());
  auto envs = core::optional_string_array(*body, "environments");
  if (!envs) return envelope_error(envs.error());
  if (*envs && (*envs)->empty())
    return envelope_error(400, "'environments' must name at least one environment, or be left out");
  auto made = create_project(app, ctx, *name, envs->value_or(std::vector<std::string>{}));
  if (!made) return envelope_error(made.error());
  return envelope_ok(std::move(*made), 201);
}

Response create_token_route(App& app, Request& req, const CompanyContext& ctx) {
  auto body = body_object(req);
  if (!body) return envelope_error(body.error());
  auto name = core::require_string(*body, "name");
  if (!name) return envelope_error(name.error());
  auto env = core::require_string(*body, "environment");
  if (!env) return envelope_error(env.error());
  auto access_text = core::optional_string(*body, "access");
  if (!access_text) return envelope_error(access_text.error());
  auto access = parse_access(access_text->value_or("full"));
  if (!access) return envelope_error(400, "'access' must be one of full, read, public");
  auto made = create_token(app, ctx, req.param("id"), *name, *env, *access);
  if (!made) return envelope_error(made.error());
  json::object out = std::move(made->record);
  out["token"] = made->plaintext;
  Response r = envelope_ok(std::move(out), 201);
  r.set_header("Cache-Control", "no-store");
  return r;
}

Response rollback_route(App& app, Request& req, const CompanyContext& ctx) {
  auto body = body_object(req);
  if (!body) return envelope_error(body.error());
  auto target = core::require_int(*body, "version");
  if (!target) return envelope_error(target.error());
  auto base = core::optional_int(*body, "baseVersion");
  if (!base) return envelope_error(base.error());
  std::int64_t current = 0;
  auto done = rollback(app, ctx, req.param("id"), req.param("env"), *target, *base, &current);
  if (!done) {
    if (done.error().code == "version_conflict") return conflict(done.error(), current);
    return envelope_error(done.error());
  }
  Response r = envelope_ok(outcome_to_api(*done), 201);
  r.set_header("X-Vault-Version", std::to_string(done->version));
  return r;
}

Response diff_route(App& app, Request& req, const CompanyContext& ctx) {
  auto from = parse_version(req.query_param("from").value_or(""));
  auto to = parse_version(req.query_param("to").value_or(""));
  if (!from || !to)
    return envelope_error(400,
                          "query parameters 'from' and 'to' must be version numbers (0 is the empty start)");
  auto d = diff_versions(app, ctx.company.id, req.param("id"), req.param("env"), *from, *to);
  if (!d) return envelope_error(d.error());
  json::object out{{"from", *from}, {"to", *to}};
  for (auto& [k, v] : core::vault::diff_to_json(*d)) out[k] = v;
  return envelope_ok(std::move(out));
}

Response create_webhook_route(App& app, Request& req, const CompanyContext& ctx) {
  auto body = body_object(req);
  if (!body) return envelope_error(body.error());
  auto url = core::require_string(*body, "url");
  if (!url) return envelope_error(url.error());
  auto env = core::optional_string(*body, "environment");
  if (!env) return envelope_error(env.error());
  auto made = create_webhook(app, ctx, req.param("id"), *url, env->value_or(""));
  if (!made) return envelope_error(made.error());
  json::object out = std::move(made->record);
  out["secret"] = made->secret;
  Response r = envelope_ok(std::move(out), 201);
  r.set_header("Cache-Control", "no-store");
  return r;
}

}  // namespace

void register_management_routes(App& app) {
  add(app, "GET", "/projects", kView, [&app](Request& req, const CompanyContext& ctx) {
    auto all = list_projects(app, ctx.company.id);
    if (!all) return envelope_error(all.error());
    return paged(req, *all);
  });
  add(app, "POST", "/projects", kManage,
      [&app](Request& req, const CompanyContext& ctx) { return create_project_route(app, req, ctx); });
  add(app, "GET", "/projects/{id}", kView, [&app](Request& req, const CompanyContext& ctx) {
    auto p = find_project(app, ctx.company.id, req.param("id"));
    if (!p) return envelope_error(p.error());
    return envelope_ok(std::move(*p));
  });
  add(app, "PATCH", "/projects/{id}", kManage, [&app](Request& req, const CompanyContext& ctx) {
    auto body = body_object(req);
    if (!body) return envelope_error(body.error());
    auto name = core::require_string(*body, "name");
    if (!name) return envelope_error(name.error());
    auto p = rename_project(app, ctx, req.param("id"), *name);
    if (!p) return envelope_error(p.error());
    return envelope_ok(std::move(*p));
  });
  add(app, "DELETE", "/projects/{id}", kManage, [&app](Request& req, const CompanyContext& ctx) {
    auto st = delete_project(app, ctx, req.param("id"));
    if (!st.ok()) return envelope_error(st.error());
    return envelope_ok(json::object{{"id", std::string(req.param("id"))}, {"deleted", true}});
  });

  add(app, "GET", "/projects/{id}/environments", kView, [&app](Request& req, const CompanyContext& ctx) {
    auto p = find_project(app, ctx.company.id, req.param("id"));
    if (!p) return envelope_error(p.error());
    return envelope_ok(p->at("environments"));
  });
  add(app, "POST", "/projects/{id}/environments", kManage, [&app](Request& req, const CompanyContext& ctx) {
    auto body = body_object(req);
    if (!body) return envelope_error(body.error());
    auto name = core::require_string(*body, "name");
    if (!name) return envelope_error(name.error());
    auto e = add_environment(app, ctx, req.param("id"), *name);
    if (!e) return envelope_error(e.error());
    return envelope_ok(std::move(*e), 201);
  });
  add(app, "GET", "/projects/{id}/environments/{env}", kView,
      [&app](Request& req, const CompanyContext& ctx) {
        auto e = find_environment(app, ctx.company.id, req.param("id"), req.param("env"));
        if (!e) return envelope_error(e.error());
        return envelope_ok(std::move(*e));
      });
  add(app, "DELETE", "/projects/{id}/environments/{env}", kManage,
      [&app](Request& req, const CompanyContext& ctx) {
        auto st = delete_environment(app, ctx, req.param("id"), req.param("env"));
        if (!st.ok()) return envelope_error(st.error());
        return envelope_ok(json::object{{"name", std::string(req.param("env"))}, {"deleted", true}});
      });

  add(app, "GET", "/projects/{id}/environments/{env}/versions", kView,
      [&app](Request& req, const CompanyContext& ctx) {
        auto all = list_versions(app, ctx.company.id, req.param("id"), req.param("env"));
        if (!all) return envelope_error(all.error());
        return paged(req, *all);
      });
  add(app, "GET", "/projects/{id}/environments/{env}/versions/{version}", kView,
      [&app](Request& req, const CompanyContext& ctx) {
        auto n = parse_version(req.param("version"));
        if (!n) return envelope_error(404, "version not found");
        auto v = find_version(app, ctx.company.id, req.param("id"), req.param("env"), *n);
        if (!v) return envelope_error(v.error());
        return envelope_ok(std::move(*v));
      });
  add(app, "GET", "/projects/{id}/environments/{env}/diff", kView,
      [&app](Request& req, const CompanyContext& ctx) { return diff_route(app, req, ctx); });
  add(app, "POST", "/projects/{id}/environments/{env}/rollback", kManage,
      [&app](Request& req, const CompanyContext& ctx) { return rollback_route(app, req, ctx); });

  add(app, "GET", "/projects/{id}/tokens", kView, [&app](Request& req, const CompanyContext& ctx) {
    auto all = list_tokens(app, ctx.company.id, req.param("id"));
    if (!all) return envelope_error(all.error());
    return paged(req, *all);
  });
  add(app, "POST", "/projects/{id}/tokens", kManage,
      [&app](Request& req, const CompanyContext& ctx) { return create_token_route(app, req, ctx); });
  add(app, "DELETE", "/projects/{id}/tokens/{tokenId}", kManage,
      [&app](Request& req, const CompanyContext& ctx) {
        auto t = revoke_token(app, ctx, req.param("id"), req.param("tokenId"));
        if (!t) return envelope_error(t.error());
        return envelope_ok(std::move(*t));
      });

  add(app, "GET", "/projects/{id}/webhooks", kView, [&app](Request& req, const CompanyContext& ctx) {
    auto all = list_webhooks(app, ctx.company.id, req.param("id"));
    if (!all) return envelope_error(all.error());
    return paged(req, *all);
  });
  add(app, "POST", "/projects/{id}/webhooks", kManage,
      [&app](Request& req, const CompanyContext& ctx) { return create_webhook_route(app, req, ctx); });
  add(app, "DELETE", "/projects/{id}/webhooks/{webhookId}", kManage,
      [&app](Request& req, const CompanyContext& ctx) {
        auto st = delete_webhook(app, ctx, req.param("id"), req.param("webhookId"));
        if (!st.ok()) return envelope_error(st.error());
        return envelope_ok(json::object{{"id", std::string(req.param("webhookId"))}, {"deleted", true}});
      });

  add(app, "GET", "/audit", kView, [&app](Request& req, const CompanyContext& ctx) {
    auto all = list_audit(app, ctx.company.id, "env-vault.");
    if (!all) return envelope_error(all.error());
    return paged(req, *all);
  });
}

void register_vault_routes(App& app) {
  register_management_routes(app);
  register_token_routes(app);
}

}  // namespace edge::vault
