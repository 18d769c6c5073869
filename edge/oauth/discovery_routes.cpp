// GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0), GET /.well-known/jwks.json and
// GET/POST /oauth/end-session (OpenID Connect RP-Initiated Logout 1.0).

#include <algorithm>

#include "core/crypto.h"
#include "edge/accounts/session_cookie.h"
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

// The end-session parameters a confirmation form carries back.
constexpr const char* kEndSessionCarried[] = {"client_id", "post_logout_redirect_uri", "state", "ui_locales"};

// RP-Initiated Logout §3: without an id_token_hint the OP must ask the End-User before logging out.
Response confirmation_page(const OAuthClient& client, const SignedIn& who,
                           const std::multimap<std::string, std::string>& params, Lang lang) {
  const Texts& t = texts(lang);
  std::string body = "<div class=\"card narrow\"><p class=\"muted\" style=\"margin:0 0 6px\">" +
                     html_escape(t.end_session_title) + "</p><h1>" + html_escape(client.name) +
                     html_escape(t.end_session_asks) + "</h1><p class=\"muted\">" + html_escape(t.as_user) +
                     " <strong>" + html_escape(who.user.email) +
                     "</strong></p><form method=\"post\" action=\"/oauth/end-session\">"
                     "<input type=\"hidden\" name=\"csrf\" value=\"" +
                     who.session.csrf_token + "\">";
  for (const char* name : kEndSessionCarried) {
    auto it = params.find(name);
    if (it != params.end())
      body += "<input type=\"hidden\" name=\"" + std::string(name) + "\" value=\"" + html_escape(it->second) +
              "\">";
  }
  body += "<div class=\"actions\"><button type=\"submit\" id=\"sign-out\">" + html_escape(t.sign_out) +
          "</button></div></form></div>";
  return html_page(200, t.end_session_title, body, lang_code(lang));
}

// GET or POST /oauth/end-session (RP-Initiated Logout §2-§3). The client is named by id_token_hint (its
// `aud`) or by client_id. With a hint, the hint's user is signed out of that client at once; without one,
// the signed-in user is asked first (confirmation_page, whose POST carries the session's CSRF token).
// Signing out revokes every token of (user, client), bumps the pair's revocation epoch (codes issued
// before are refused) and ends the browser's platform session when it is that user's, so the RP's next
// authorize asks for a sign-in instead of silently issuing a new code.
Response end_session(App& app, const Request& req, const std::multimap<std::string, std::string>& params,
                     bool is_post) {
  auto first = [&](const char* name) {
    auto it = params.find(name);
    return it == params.end() ? std::string() : it->second;
  };
  Lang lang = pick_lang(first("ui_locales"), req.header("accept-language"));
  auto page = [&](int status, std::string_view title, std::string_view text) {
    return html_page(status, title,
                     "<div class=\"card narrow\"><h1>" + html_escape(title) + "</h1><p class=\"lead\">" +
                         html_escape(text) + "</p></div>",
                     lang_code(lang));
  };
  const Texts& t = texts(lang);
  std::string hint = first("id_token_hint"), client_id = first("client_id"), hinted_user;
  if (!hint.empty()) {
    // Signature only: an expired id_token is still a good hint of who and which client (RP-Initiated
    // Logout §2).
    auto jwt = app.id_tokens->verify(hint);
    if (!jwt) return page(400, t.error_title, "id_token_hint is not a valid id_token of this provider");
    auto* sub = jwt->claims.if_contains("sub");
    auto* aud = jwt->claims.if_contains("aud");
    auto* iss = jwt->claims.if_contains("iss");
    if (!sub || !sub->is_string() || !aud || !aud->is_string() || !iss || !iss->is_string() ||
        iss->get_string() != app.config.auth_url)
      return page(400, t.error_title, "id_token_hint is not a valid id_token of this provider");
    if (!client_id.empty() && client_id != aud->get_string())
      return page(400, t.error_title, "client_id does not match the id_token_hint");
    client_id = aud->get_string();
    hinted_user = sub->get_string();
  } else if (client_id.empty()) {
    return page(400, t.error_title, "id_token_hint or client_id is required");
  }
  auto client = app.oauth->client(client_id);
  if (!client) {
    if (client.error().code == "not_found") return page(400, t.error_title, "unknown client");
    return page(503, t.error_title, "storage failure; retry");
  }
  std::string target = first("post_logout_redirect_uri");
  if (!target.empty() &&
      std::find(client->post_logout_redirect_uris.begin(), client->post_logout_redirect_uris.end(), target) ==
          client->post_logout_redirect_uris.end())
    return page(400, t.error_title, "post_logout_redirect_uri is not registered for this client");

  std::string cookie = req.cookie(Sessions::kCookieName);
  bool confirmation = is_post && params.count("csrf");
  // The session cookie is SameSite=Lax: a POST from the RP's site arrives without it. Send the browser
  // to the same request as a GET (a top-level navigation, which carries it); the GET never redirects here
  // again.
  if (is_post && !confirmation && cookie.empty()) {
    std::vector<std::pair<std::string, std::string>> q(params.begin(), params.end());
    return redirect_response(303, with_query("/oauth/end-session", q));
  }
  auto who = signed_in(app, req);
  if (confirmation && (!who || !core::constant_time_equal(who->session.csrf_token, first("csrf"))))
    return page(403, t.error_title, t.forged_form);

  std::string user_id = hinted_user;
  if (hint.empty() && who) {
    if (!confirmation) return confirmation_page(*client, *who, params, lang);
    user_id = who->user.id;
  }
  // Without a hint and without a session there is nobody to sign out: only the redirect remains.
  if (!user_id.empty() && !app.oauth->revoke_pair(user_id, client_id))
    return page(503, t.error_title, "storage failure; retry");
  Response r;
  if (target.empty()) {
    r = page(200, t.signed_out_title, t.signed_out_lead);
  } else {
    std::vector<std::pair<std::string, std::string>> q;
    if (auto state = first("state"); !state.empty()) q.emplace_back("state", state);
    r = redirect_to(with_query(target, q));
  }
  // Another user's session (the hint names someone else) is left alone: signing that user out would need
  // their confirmation (§3), and their session issues no code for the hint's user.
  if (who && who->user.id == user_id) {
    if (!app.sessions->end(cookie)) return page(503, t.error_title, "storage failure; retry");
    r.set_header("Set-Cookie", expired_session_cookie(app));
  }
  return r;
}

}  // namespace

void register_discovery_routes(App& app) {
  Router& r = app.router;
  // Discovery and the key set are built from memory: on the I/O thread.
  const RouteOptions from_memory = {.nonblocking = true};
  r.add(
      "GET", "/.well-known/openid-configuration", [&app](Request&) { return discovery(app); }, from_memory);
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
  r.add("GET", "/oauth/end-session",
        [&app](Request& req) { return end_session(app, req, req.query, false); });
  r.add("POST", "/oauth/end-session",
        [&app](Request& req) { return end_session(app, req, parse_url_encoded(req.body), true); });
}

}  // namespace edge::oauth
