// GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0), GET /.well-known/jwks.json and
// GET/POST /oauth/end-session (OpenID Connect RP-Initiated Logout 1.0).

#include "edge/app.h"
#include "edge/oauth/oauth_http.h"
#include "edge/oauth/oauth_routes.h"
#include "edge/oauth/texts.h"
#include "edge/pages/layout.h"

namespace edge::oauth {
namespace json = core::json;
namespace {

json::array strings(std::initializer_list<const char*> items) {
  json::array a;
  for (const char* s : items) a.emplace_back(s);
  return a;
}

Response discovery(App& app) {
  const std::string& iss = app.config.auth_url;
  json::object d{
      {"issuer", iss},
      {"authorization_endpoint", iss + "/oauth/authorize"},
      {"token_endpoint", iss + "/oauth/token"},
      {"userinfo_endpoint", iss + "/oauth/userinfo"},
      {"revocation_endpoint", iss + "/oauth/revoke"},
      {"introspection_endpoint", iss + "/oauth/introspect"},
      {"end_session_endpoint", iss + "/oauth/end-session"},
      {"response_types_supported", strings({"code"})},
      {"response_modes_supported", strings({"query"})},
      {"grant_types_supported", strings({"authorization_code", "refresh_token"})},
      {"subject_types_supported", strings({"public"})},
      {"id_token_signing_alg_values_supported", json::array{app.id_tokens->alg()}},
      {"scopes_supported", strings({"openid", "profile", "email", "offline_access"})},
      {"claims_supported", strings({"iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "name",
                                    "preferred_username", "picture", "email", "email_verified"})},
      {"code_challenge_methods_supported", strings({"S256"})},
      {"token_endpoint_auth_methods_supported",
       strings({"client_secret_basic", "client_secret_post", "none"})},
      {"revocation_endpoint_auth_methods_supported",
       strings({"client_secret_basic", "client_secret_post", "none"})},
      {"introspection_endpoint_auth_methods_supported",
       strings({"client_secret_basic", "client_secret_post", "none"})},
      {"prompt_values_supported", strings({"none", "login", "consent"})},
      {"ui_locales_supported", strings({"en", "tr"})},
      {"authorization_response_iss_parameter_supported", true},
      {"claims_parameter_supported", false},
      {"request_parameter_supported", false},
      {"request_uri_parameter_supported", false}};
  if (app.id_tokens->rs256()) d["jwks_uri"] = iss + "/.well-known/jwks.json";
  Response r;
  r.body = json::serialize(d);
  r.set_header("Cache-Control", "public, max-age=300");
  r.set_header("Access-Control-Allow-Origin", "*");
  return r;
}

Response end_session(App& app, const Request& req, const std::multimap<std::string, std::string>& params) {
  auto first = [&](const char* name) {
    auto it = params.find(name);
    return it == params.end() ? std::string() : it->second;
  };
  Lang lang = pick_lang(first("ui_locales"), req.header("accept-language"));
  auto page = [&](int status, std::string_view title, std::string_view text) {
    return html_page(status, title,
                     "<div class=\"card narrow\"><h1>" + html_escape(title) + "</h1><p class=\"lead\">" +
                         html_escape(text) + "</p></div>");
  };
  std::string hint = first("id_token_hint");
  if (hint.empty()) return page(400, texts(lang).error_title, "id_token_hint is required");
  // Signature only: an expired id_token is still a good hint of who and which client (RP-Initiated Logout
  // §2).
  auto jwt = app.id_tokens->verify(hint);
  if (!jwt)
    return page(400, texts(lang).error_title, "id_token_hint is not a valid id_token of this provider");
  auto* sub = jwt->claims.if_contains("sub");
  auto* aud = jwt->claims.if_contains("aud");
  auto* iss = jwt->claims.if_contains("iss");
  if (!sub || !sub->is_string() || !aud || !aud->is_string() || !iss || !iss->is_string() ||
      iss->get_string() != app.config.auth_url)
    return page(400, texts(lang).error_title, "id_token_hint is not a valid id_token of this provider");
  std::string client_id(aud->get_string()), user_id(sub->get_string());
  if (auto given = first("client_id"); !given.empty() && given != client_id)
    return page(400, texts(lang).error_title, "client_id does not match the id_token_hint");
  auto client = app.oauth->client(client_id);
  if (!client) return page(400, texts(lang).error_title, "unknown client");
  std::string target = first("post_logout_redirect_uri");
  if (!target.empty() &&
      std::find(client->post_logout_redirect_uris.begin(), client->post_logout_redirect_uris.end(), target) ==
          client->post_logout_redirect_uris.end())
    return page(400, texts(lang).error_title, "post_logout_redirect_uri is not registered for this client");
  if (!app.oauth->revoke_pair(user_id, client_id))
    return page(503, texts(lang).error_title, "storage failure; retry");
  if (target.empty()) return page(200, texts(lang).signed_out_title, texts(lang).signed_out_lead);
  std::vector<std::pair<std::string, std::string>> q;
  if (auto state = first("state"); !state.empty()) q.emplace_back("state", state);
  return redirect_to(with_query(target, q));
}

}  // namespace

void register_discovery_routes(App& app) {
  Router& r = app.router;
  // Discovery and the key set are built from memory: on the I/O thread.
  const RouteOptions from_memory = {.nonblocking = true};
  r.add("GET", "/.well-known/openid-configuration", [&app](Request&) { return discovery(app); }, from_memory);
  r.add(
      "GET", "/.well-known/jwks.json",
      [&app](Request&) {
        Response res;
        res.body = json::serialize(app.id_tokens->jwks());
        res.content_type = "application/jwk-set+json";
        res.set_header("Cache-Control", "public, max-age=300");
        res.set_header("Access-Control-Allow-Origin", "*");
        return res;
      },
      from_memory);
  r.add("GET", "/oauth/end-session", [&app](Request& req) { return end_session(app, req, req.query); });
  r.add("POST", "/oauth/end-session",
        [&app](Request& req) { return end_session(app, req, parse_url_encoded(req.body)); });
}

}  // namespace edge::oauth
