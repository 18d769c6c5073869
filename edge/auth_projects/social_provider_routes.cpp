// The dashboard's API for a project's social providers, under
// /api/companies/{slug}/auth-projects/{projectId}/providers (permission auth-projects.manage, like the rest
// of project_routes.cpp). Saving an issuer runs discovery first, so a provider that cannot serve a sign-in is
// refused at once instead of at the first end user's attempt. The client secret is write-only.

#include "edge/app.h"
#include "edge/auth_projects/project_store.h"
#include "edge/auth_projects/social_oidc.h"
#include "edge/auth_projects/social_providers.h"
#include "edge/auth_projects/social_routes.h"
#include "edge/platform/company_auth.h"
#include "edge/platform/envelope.h"

namespace edge::auth_projects {
namespace {

const std::string kBase = "/api/companies/{slug}/auth-projects/{projectId}/providers";
const std::string kPermission = "auth-projects.manage";

using ProviderRouteFn = std::function<Response(Request&, const Project&)>;

// A route on one project of the company: 404 for another company's project.
void add(App& app, const std::string& method, const std::string& path, ProviderRouteFn fn) {
  app.router.add(
      method, kBase + path,
      company_route(app, kPermission, [&app, fn = std::move(fn)](Request& req, const CompanyContext& ctx) {
        auto project = find_project(app, ctx.company.id, std::string(req.param("projectId")));
        if (!project) return envelope_error(project.error());
        return fn(req, *project);
      }));
}

// 400 for an issuer the client may not fetch (not a URL, plain http to a remote host), 502 when the issuer
// cannot be reached, 422 for whatever else it answered (no discovery document, another issuer, no RS256,
// no code flow). The library's messages name the URL and the reason, never a secret.
Response discovery_refused(const core::Error& error) {
  const std::string& c = error.code;
  if (c == "oidc_invalid_url" || c == "oidc_insecure_url")
    return envelope_error(400, "the issuer cannot be used: " + error.message);
  if (c == "oidc_unreachable") return envelope_error(502, "the issuer cannot be reached: " + error.message);
  return envelope_error(422, "the issuer cannot be discovered as an OpenID provider: " + error.message);
}

std::variant<ProviderFields, Response> fields_of(const Request& req, bool creating) {
  auto body = core::parse_json_object(req.body);
  if (!body) return envelope_error(body.error());
  auto fields = parse_provider_fields(*body, creating);
  if (!fields) return envelope_error(fields.error());
  return std::move(*fields);
}

}  // namespace

void register_social_provider_routes(App& app, std::shared_ptr<SocialOidc> oidc) {
  add(app, "GET", "", [&app](Request&, const Project& p) {
    auto all = list_providers(app, p.id);
    if (!all) return envelope_error(all.error());
    json::array out;
    for (const auto& provider : *all) out.push_back(to_api(provider));
    return envelope_ok(std::move(out));
  });
  add(app, "POST", "", [&app, oidc](Request& req, const Project& p) {
    auto fields = fields_of(req, true);
    if (auto* r = std::get_if<Response>(&fields)) return std::move(*r);
    const ProviderFields& f = std::get<ProviderFields>(fields);
    if (auto found = oidc->rediscover(*f.issuer); !found) return discovery_refused(found.error());
    auto created = create_provider(app, p, f);
    if (!created) return envelope_error(created.error());
    return envelope_ok(to_api(*created), 201);
  });
  add(app, "GET", "/{providerId}", [&app](Request& req, const Project& p) {
    auto provider = find_provider(app, p.id, req.param("providerId"));
    if (!provider) return envelope_error(provider.error());
    return envelope_ok(to_api(*provider));
  });
  add(app, "PATCH", "/{providerId}", [&app, oidc](Request& req, const Project& p) {
    auto fields = fields_of(req, false);
    if (auto* r = std::get_if<Response>(&fields)) return std::move(*r);
    const ProviderFields& f = std::get<ProviderFields>(fields);
    if (!f.name && !f.issuer && !f.client_id && !f.client_secret && !f.scopes)
      return envelope_error(400, "give at least one of name, issuer, clientId, clientSecret, scopes");
    // 404 before the network: an unknown provider needs no discovery.
    auto before = find_provider(app, p.id, req.param("providerId"));
    if (!before) return envelope_error(before.error());
    if (f.issuer)
      if (auto found = oidc->rediscover(*f.issuer); !found) return discovery_refused(found.error());
    auto updated = update_provider(app, p.id, before->id, f);
    if (!updated) return envelope_error(updated.error());
    return envelope_ok(to_api(*updated));
  });
  add(app, "DELETE", "/{providerId}", [&app](Request& req, const Project& p) {
    const std::string id(req.param("providerId"));
    auto st = delete_provider(app, p.id, id);
    if (!st.ok()) return envelope_error(st.error());
    return envelope_ok(json::object{{"id", id}, {"deleted", true}});
  });
}

}  // namespace edge::auth_projects
