// The dashboard's API for auth projects under /api/companies/{slug}/auth-projects (permission
// auth-projects.manage, dashboard-only: a platform session or an owner/admin; document 2, "Authentication").
// Projects, their `aps_` keys (plaintext once), signing-key rotation, and the users, sessions and passkeys
// of a project.

#include "edge/app.h"
#include "edge/auth_projects/auth_routes.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/mfa_routes.h"
#include "edge/auth_projects/passkey_store.h"
#include "edge/auth_projects/project_api.h"
#include "edge/auth_projects/project_sessions.h"
#include "edge/auth_projects/project_store.h"
#include "edge/auth_projects/signing_keys.h"
#include "edge/platform/company_auth.h"
#include "edge/platform/envelope.h"
#include "edge/platform/paging.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

const std::string kBase = "/api/companies/{slug}/auth-projects";
const std::string kPermission = "auth-projects.manage";

using ProjectRouteFn = std::function<Response(Request&, const CompanyContext&, const Project&)>;

// A route on one project of the company: 404 for another company's project.
CompanyHandler on_project(App& app, ProjectRouteFn fn) {
  return [&app, fn = std::move(fn)](Request& req, const CompanyContext& ctx) -> Response {
    auto project = find_project(app, ctx.company.id, std::string(req.param("projectId")));
    if (!project) return envelope_error(project.error());
    return fn(req, ctx, *project);
  };
}

void add(App& app, const std::string& method, const std::string& path, CompanyHandler handler) {
  app.router.add(method, kBase + path, company_route(app, kPermission, std::move(handler)));
}

// A user of the project, or the 404.
std::variant<EndUser, Response> user_of(App& app, const Project& project, std::string_view uid) {
  auto user = find_user(app, project.id, uid);
  if (!user) return envelope_error(user.error());
  if (!*user) return envelope_error(404, "user not found");
  return std::move(**user);
}

}  // namespace

void register_project_routes(App& app) {
  add(app, "GET", "", [&app](Request&, const CompanyContext& ctx) {
    auto all = list_projects(app, ctx.company.id);
    if (!all) return envelope_error(all.error());
    json::array out;
    for (const auto& p : *all) out.push_back(to_api(app, p));
    return envelope_ok(std::move(out));
  });
  add(app, "POST", "", [&app](Request& req, const CompanyContext& ctx) {
    auto body = core::parse_json_object(req.body);
    if (!body) return envelope_error(body.error());
    auto p = create_project(app, ctx.company.id, *body);
    if (!p) return envelope_error(p.error());
    return envelope_ok(to_api(app, *p), 201);
  });
  add(app, "GET", "/{projectId}", on_project(app, [&app](Request&, const CompanyContext&, const Project& p) {
        return envelope_ok(to_api(app, p));
      }));
  add(app, "PATCH", "/{projectId}",
      on_project(app, [&app](Request& req, const CompanyContext& ctx, const Project& p) {
        auto body = core::parse_json_object(req.body);
        if (!body) return envelope_error(body.error());
        auto updated = update_project(app, ctx.company.id, p.id, *body);
        if (!updated) return envelope_error(updated.error());
        return envelope_ok(to_api(app, *updated));
      }));
  add(app, "DELETE", "/{projectId}",
      on_project(app, [&app](Request&, const CompanyContext& ctx, const Project& p) {
        auto st = delete_project(app, ctx.company.id, p.id);
        if (!st.ok()) return envelope_error(st.error());
        return envelope_ok(json::object{{"id", p.id}, {"deleted", true}});
      }));

  // Keys.
  add(app, "GET", "/{projectId}/keys",
      on_project(app, [&app](Request&, const CompanyContext&, const Project& p) {
        auto keys = list_keys(app, p.id);
        if (!keys) return envelope_error(keys.error());
        json::array out;
        for (const auto& k : *keys) out.push_back(to_api(k));
        return envelope_ok(std::move(out));
      }));
  add(app, "POST", "/{projectId}/keys",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto body =
            core::parse_json_object(req.body.empty() ? std::string_view("{}") : std::string_view(req.body));
        if (!body) return envelope_error(body.error());
        auto name = core::optional_string(*body, "name");
        if (!name) return envelope_error(name.error());
        if (name->value_or("").size() > 100)
          return envelope_error(400, "'name' must be at most 100 characters");
        std::string plaintext;
        auto k = create_key(app, p, name->value_or(""), plaintext);
        if (!k) return envelope_error(k.error());
        json::object out = to_api(*k);
        out["key"] = plaintext;
        return envelope_ok(std::move(out), 201);
      }));
  add(app, "DELETE", "/{projectId}/keys/{keyId}",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto k = revoke_key(app, p.id, std::string(req.param("keyId")));
        if (!k) return envelope_error(k.error());
        return envelope_ok(to_api(*k));
      }));

  // Signing keys: what jwks.json publishes, and rotation.
  add(app, "GET", "/{projectId}/signing-keys",
      on_project(app, [&app](Request&, const CompanyContext&, const Project& p) {
        auto keys = app.auth_signing_keys->published(p);
        if (!keys) return envelope_error(keys.error());
        auto current = app.auth_signing_keys->current(p);
        if (!current) return envelope_error(current.error());
        json::array out;
        for (const auto& k : *keys)
          out.push_back(json::object{{"kid", k.kid}, {"current", k.kid == (*current)->public_key().kid}});
        return envelope_ok(std::move(out));
      }));
  add(app, "POST", "/{projectId}/signing-keys/rotate",
      on_project(app, [&app](Request&, const CompanyContext&, const Project& p) {
        auto kid = app.auth_signing_keys->rotate(p);
        if (!kid) return envelope_error(kid.error());
        return envelope_ok(json::object{{"kid", *kid}});
      }));

  // Users and their sessions.
  add(app, "GET", "/{projectId}/users",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto paging = parse_paging(req);
        if (!paging) return envelope_error(paging.error());
        auto page = list_users(app, p.id, req.query_param("q").value_or(""), paging->limit, paging->skip);
        if (!page) return envelope_error(page.error());
        json::array out;
        for (const auto& u : page->users) out.push_back(to_api(u));
        Response r = envelope_ok(std::move(out));
        r.set_header("X-Total-Count", std::to_string(page->total));
        return r;
      }));
  add(app, "GET", "/{projectId}/users/{userId}",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto user = user_of(app, p, req.param("userId"));
        if (auto* r = std::get_if<Response>(&user)) return std::move(*r);
        return envelope_ok(to_api(std::get<EndUser>(user)));
      }));
  add(app, "PATCH", "/{projectId}/users/{userId}",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto body = core::parse_json_object(req.body);
        if (!body) return envelope_error(body.error());
        auto disabled = core::optional_bool(*body, "disabled");
        if (!disabled) return envelope_error(disabled.error());
        auto verified = core::optional_bool(*body, "emailVerified");
        if (!verified) return envelope_error(verified.error());
        auto updated = update_user(app, p.id, req.param("userId"), [&](EndUser& u) -> core::Status {
          if (*disabled) u.disabled = **disabled;
          if (*verified) u.email_verified = **verified;
          return {};
        });
        if (!updated) return envelope_error(updated.error());
        // Disabling ends every session at once: userinfo and refresh already refuse a disabled user; the
        // revocation makes it last if the user is enabled again.
        if (updated->disabled) {
          auto n = revoke_all_sessions(app, p.id, updated->id);
          if (!n) return envelope_error(n.error());
        }
        return envelope_ok(to_api(*updated));
      }));
  add(app, "DELETE", "/{projectId}/users/{userId}",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto st = delete_user(app, p.id, req.param("userId"));
        if (!st.ok()) return envelope_error(st.error());
        return envelope_ok(json::object{{"id", std::string(req.param("userId"))}, {"deleted", true}});
      }));
  // An administrator's reset of a lost second factor: the user signs in with the first factor alone and
  // may enroll again. Idempotent.
  add(app, "DELETE", "/{projectId}/users/{userId}/mfa",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto updated = update_user(app, p.id, req.param("userId"), [](EndUser& u) -> core::Status {
          remove_totp(u);
          return {};
        });
        if (!updated) return envelope_error(updated.error());
        return envelope_ok(to_api(*updated));
      }));
  add(app, "GET", "/{projectId}/users/{userId}/sessions",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto user = user_of(app, p, req.param("userId"));
        if (auto* r = std::get_if<Response>(&user)) return std::move(*r);
        auto sessions = list_sessions(app, p.id, std::get<EndUser>(user).id);
        if (!sessions) return envelope_error(sessions.error());
        json::array out;
        for (const auto& s : *sessions) out.push_back(to_api(s));
        return envelope_ok(std::move(out));
      }));
  add(app, "DELETE", "/{projectId}/users/{userId}/sessions/{sessionId}",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto st = revoke_session(app, p.id, req.param("userId"), req.param("sessionId"));
        if (!st.ok()) return envelope_error(st.error());
        return envelope_ok(json::object{{"revoked", true}});
      }));
  add(app, "DELETE", "/{projectId}/users/{userId}/sessions",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto n = revoke_all_sessions(app, p.id, req.param("userId"));
        if (!n) return envelope_error(n.error());
        return envelope_ok(json::object{{"revoked", *n}});
      }));
  add(app, "GET", "/{projectId}/users/{userId}/passkeys",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto user = user_of(app, p, req.param("userId"));
        if (auto* r = std::get_if<Response>(&user)) return std::move(*r);
        auto passkeys = list_passkeys(app, p.id, std::get<EndUser>(user).id);
        if (!passkeys) return envelope_error(passkeys.error());
        json::array out;
        for (const auto& k : *passkeys) out.push_back(to_api(k));
        return envelope_ok(std::move(out));
      }));
  add(app, "DELETE", "/{projectId}/users/{userId}/passkeys/{passkeyId}",
      on_project(app, [&app](Request& req, const CompanyContext&, const Project& p) {
        auto user = user_of(app, p, req.param("userId"));
        if (auto* r = std::get_if<Response>(&user)) return std::move(*r);
        auto st = delete_passkey(app, p.id, std::get<EndUser>(user).id, req.param("passkeyId"));
        if (!st.ok()) return envelope_error(st.error());
        return envelope_ok(json::object{{"id", std::string(req.param("passkeyId"))}, {"deleted", true}});
      }));
}

}  // namespace edge::auth_projects
