// OAuth client registration under /api/companies/{slug}/oauth-clients (permission oauth-clients.manage;
// owners and admins always). The client secret is shown once, at creation and at rotation.

#include "edge/app.h"
#include "edge/oauth/oauth_routes.h"
#include "edge/platform/company_auth.h"
#include "edge/platform/envelope.h"

namespace edge::oauth {
namespace json = core::json;
namespace {

core::Result<ClientInput> client_input(const json::object& body) {
  ClientInput in;
  auto name = core::optional_string(body, "name");
  if (!name) return name.error();
  in.name = *name;
  auto homepage = core::optional_string(body, "homepageUrl");
  if (!homepage) return homepage.error();
  in.homepage_url = *homepage;
  auto redirects = core::optional_string_array(body, "redirectUris");
  if (!redirects) return redirects.error();
  in.redirect_uris = *redirects;
  auto logout = core::optional_string_array(body, "postLogoutRedirectUris");
  if (!logout) return logout.error();
  in.post_logout_redirect_uris = *logout;
  auto scopes = core::optional_string_array(body, "scopes");
  if (!scopes) return scopes.error();
  in.scopes = *scopes;
  auto is_public = core::optional_bool(body, "public");
  if (!is_public) return is_public.error();
  in.is_public = *is_public;
  return in;
}

json::object with_secret(const OAuthClient& c, const std::string& secret) {
  json::object o = to_json(c);
  if (!secret.empty()) o["clientSecret"] = secret;
  return o;
}

}  // namespace

void register_client_routes(App& app) {
  Router& r = app.router;
  const std::string base = "/api/companies/{slug}/oauth-clients";
  const std::string perm = "oauth-clients.manage";
  r.add("GET", base, company_route(app, perm, [&app](Request&, const CompanyContext& ctx) {
          auto all = app.oauth->clients_of(ctx.company.id);
          if (!all) return envelope_error(all.error());
          json::array out;
          for (auto& c : *all) out.push_back(to_json(c));
          return envelope_ok(std::move(out));
        }));
  r.add("POST", base, company_route(app, perm, [&app](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return envelope_error(body.error());
          auto in = client_input(*body);
          if (!in) return envelope_error(in.error());
          std::string secret;
          auto c = app.oauth->create_client(ctx.company.id, *in, &secret);
          if (!c) return envelope_error(c.error());
          return envelope_ok(with_secret(*c, secret), 201);
        }));
  r.add("GET", base + "/{clientId}",
        company_route(app, perm, [&app](Request& req, const CompanyContext& ctx) {
          auto c = app.oauth->client(req.param("clientId"));
          if (!c || c->company_id != ctx.company.id) return envelope_error(404, "OAuth client not found");
          return envelope_ok(to_json(*c));
        }));
  r.add("PATCH", base + "/{clientId}",
        company_route(app, perm, [&app](Request& req, const CompanyContext& ctx) {
          auto body = core::parse_json_object(req.body);
          if (!body) return envelope_error(body.error());
          auto in = client_input(*body);
          if (!in) return envelope_error(in.error());
          auto c = app.oauth->update_client(ctx.company.id, req.param("clientId"), *in);
          if (!c) return envelope_error(c.error());
          return envelope_ok(to_json(*c));
        }));
  r.add("POST", base + "/{clientId}/rotate-secret",
        company_route(app, perm, [&app](Request& req, const CompanyContext& ctx) {
          std::string secret;
          auto c = app.oauth->rotate_secret(ctx.company.id, req.param("clientId"), &secret);
          if (!c) return envelope_error(c.error());
          return envelope_ok(with_secret(*c, secret));
        }));
  r.add("DELETE", base + "/{clientId}",
        company_route(app, perm, [&app](Request& req, const CompanyContext& ctx) {
          auto deleted = app.oauth->delete_client(ctx.company.id, req.param("clientId"));
          if (!deleted) return envelope_error(deleted.error());
          return envelope_ok(json::object{{"clientId", req.param("clientId")}, {"deleted", true}});
        }));
}

}  // namespace edge::oauth
