// GET /oauth/authorize and the consent decision (POST /oauth/authorize): document 1, "GET /oauth/authorize",
// with RFC 6749 §4.1, RFC 7636, RFC 9207 (`iss` on every redirect) and OpenID Connect `prompt`.

#include "core/crypto.h"
#include "core/date.h"
#include "core/oauth/authorize_request.h"
#include "edge/accounts/session_cookie.h"
#include "edge/app.h"
#include "edge/oauth/oauth_http.h"
#include "edge/oauth/oauth_routes.h"
#include "edge/oauth/texts.h"
#include "edge/pages/layout.h"
#include "edge/platform/host_map.h"

namespace edge::oauth {
namespace {

using core::oauth::AuthorizeError;
using core::oauth::AuthorizeRequest;
using core::oauth::Prompt;

// The parameters that travel from the authorize URL through the consent form and back.
constexpr const char* kCarried[] = {"response_type", "client_id",  "redirect_uri",   "scope",
                                    "state",         "nonce",      "code_challenge", "code_challenge_method",
                                    "prompt",        "ui_locales", "login_request"};

std::optional<core::oauth::ClientPolicy> policy_of(App& app, std::string_view client_id, OAuthClient* out) {
  if (client_id.empty()) return std::nullopt;
  auto client = app.oauth->client(client_id);
  if (!client) return std::nullopt;
  core::ScopeSet allowed;
  allowed.items = client->scopes;
  if (out) *out = *client;
  return core::oauth::ClientPolicy{client->redirect_uris, std::move(allowed), client->is_public};
}

Response error_page(Lang lang, std::string_view description) {
  const Texts& t = texts(lang);
  return html_page(400, t.error_title,
                   "<div class=\"card narrow\"><h1>" + html_escape(t.error_title) +
                       "</h1><p class=\"lead\">" + html_escape(description) + "</p></div>");
}

Response redirect_error(App& app, const std::string& redirect_uri, const std::string& state,
                        std::string_view error, std::string_view description) {
  std::vector<std::pair<std::string, std::string>> params{{"error", std::string(error)},
                                                          {"error_description", std::string(description)}};
  if (!state.empty()) params.emplace_back("state", state);
  params.emplace_back("iss", app.config.auth_url);
  return redirect_to(with_query(redirect_uri, params));
}

// Issues a code for a consented request and redirects with it.
Response issue_code(App& app, const AuthorizeRequest& req, const SignedIn& who) {
  StoredCode code;
  code.client_id = req.client_id;
  code.user_id = who.user.id;
  code.redirect_uri = req.redirect_uri;
  code.nonce = req.nonce;
  code.code_challenge = req.code_challenge;
  code.scopes = req.scopes.items;
  code.auth_time_ms = who.session.created_at;
  auto plaintext = app.oauth->issue_code(std::move(code));
  if (!plaintext) return redirect_error(app, req.redirect_uri, req.state, "server_error", "storage failure");
  std::vector<std::pair<std::string, std::string>> params{{"code", *plaintext}};
  if (!req.state.empty()) params.emplace_back("state", req.state);
  params.emplace_back("iss", app.config.auth_url);
  return redirect_to(with_query(req.redirect_uri, params));
}

std::string carried_query(const std::multimap<std::string, std::string>& params) {
  std::string q;
  for (const char* name : kCarried) {
    auto it = params.find(name);
    if (it == params.end()) continue;
    q += q.empty() ? "" : "&";
    q += std::string(name) + "=" + url_encode(it->second);
  }
  return q;
}

Response consent_page(const OAuthClient& client, const AuthorizeRequest& req, const SignedIn& who,
                      const std::multimap<std::string, std::string>& params, Lang lang) {
  const Texts& t = texts(lang);
  std::string body = "<div class=\"card narrow\"><p class=\"muted\" style=\"margin:0 0 6px\">" +
                     html_escape(t.consent_title) + "</p><h1>" + html_escape(client.name) +
                     html_escape(t.wants_access) + "</h1>";
  if (!client.homepage_url.empty())
    body += "<p><a href=\"" + html_escape(client.homepage_url) + "\" rel=\"noopener noreferrer\">" +
            html_escape(t.homepage) + ": " + html_escape(host_of_url(client.homepage_url)) + "</a></p>";
  body += "<ul class=\"scopes\">";
  for (auto& s : in_reading_order(req.scopes.items))
    body += "<li>" + html_escape(scope_words(lang, s)) + "</li>";
  body += "</ul><p class=\"muted\">" + html_escape(t.as_user) + " <strong>" + html_escape(who.user.email) +
          "</strong></p><form method=\"post\" action=\"/oauth/authorize\">"
          "<input type=\"hidden\" name=\"csrf\" value=\"" +
          who.session.csrf_token + "\">";
  for (const char* name : kCarried) {
    auto it = params.find(name);
    if (it != params.end())
      body += "<input type=\"hidden\" name=\"" + std::string(name) + "\" value=\"" + html_escape(it->second) +
              "\">";
  }
  body +=
      "<div class=\"actions\"><button type=\"submit\" name=\"decision\" value=\"deny\" class=\"secondary\">" +
      html_escape(t.deny) +
      "</button><button type=\"submit\" name=\"decision\" value=\"allow\" id=\"allow\">" +
      html_escape(t.allow) + "</button></div></form></div>";
  return html_page(200, t.consent_title, body, lang_code(lang));
}

// The shared path of GET (query) and POST (consent form): validation, sign-in, consent.
Response authorize(App& app, const Request& http, const std::multimap<std::string, std::string>& params,
                   const std::optional<std::string>& decision) {
  auto first = [&](const char* name) {
    auto it = params.find(name);
    return it == params.end() ? std::string() : it->second;
  };
  Lang lang = pick_lang(first("ui_locales"), http.header("accept-language"));
  OAuthClient client;
  auto policy = policy_of(app, first("client_id"), &client);
  auto validated = core::oauth::validate_authorize(params, policy);
  if (auto* e = std::get_if<AuthorizeError>(&validated)) {
    if (e->page) return error_page(lang, e->description);
    return redirect_error(app, e->redirect_uri, e->state, e->error, e->description);
  }
  const AuthorizeRequest& req = std::get<AuthorizeRequest>(validated);

  auto who = signed_in(app, http);
  // prompt=login: sign in again, then come back without the prompt but with a login request, kept
  // server-side (login_requests.h), naming the time the new sign-in must not precede. An unknown or expired
  // login_request is a fresh prompt=login.
  bool relogin = req.prompt == Prompt::login;
  std::optional<std::int64_t> not_before;
  if (auto id = first("login_request"); !id.empty() && !relogin) {
    auto found = app.oauth->login_not_before(id);
    if (!found)
      return redirect_error(app, req.redirect_uri, req.state, "temporarily_unavailable", "storage failure");
    not_before = *found;
    if (!not_before) relogin = true;
  }
  bool stale = who && not_before && who->session.created_at < *not_before;
  if (!who || relogin || stale) {
    if (req.prompt == Prompt::none)
      return redirect_error(app, req.redirect_uri, req.state, "login_required", "the user is not signed in");
    std::multimap<std::string, std::string> next = params;
    if (relogin) {
      auto id = app.oauth->start_login_request();
      if (!id)
        return redirect_error(app, req.redirect_uri, req.state, "temporarily_unavailable", "storage failure");
      next.erase("prompt");
      next.erase("login_request");
      next.emplace("login_request", *id);
    }
    bool force = relogin || stale;
    // The sign-in page speaks the language the consent page will.
    std::string ui = first("ui_locales").empty() ? "" : "ui_locales=" + std::string(lang_code(lang)) + "&";
    return redirect_to("/login?" + std::string(force ? "force=1&" : "") + ui +
                       "next=" + url_encode("/oauth/authorize?" + carried_query(next)));
  }

  if (decision) {
    if (*decision == "deny")
      return redirect_error(app, req.redirect_uri, req.state, "access_denied", "the user denied access");
    Consent consent{who->user.id, req.client_id, req.scopes.items, app.clock.now_ms()};
    auto existing = app.oauth->consent(who->user.id, req.client_id);
    if (!existing)
      return redirect_error(app, req.redirect_uri, req.state, "temporarily_unavailable", "storage failure");
    if (*existing) {
      core::ScopeSet before;
      before.items = (*existing)->scopes;
      consent.scopes = core::scope_union(before, req.scopes).items;
    }
    if (!app.oauth->grant_consent(consent))
      return redirect_error(app, req.redirect_uri, req.state, "server_error", "storage failure");
    return issue_code(app, req, *who);
  }

  if (req.prompt != Prompt::consent) {
    auto existing = app.oauth->consent(who->user.id, req.client_id);
    if (!existing)
      return redirect_error(app, req.redirect_uri, req.state, "temporarily_unavailable", "storage failure");
    if (*existing) {
      core::ScopeSet granted;
      granted.items = (*existing)->scopes;
      if (req.scopes.subset_of(granted)) return issue_code(app, req, *who);
    }
  }
  if (req.prompt == Prompt::none)
    return redirect_error(app, req.redirect_uri, req.state, "consent_required",
                          "the user has not consented to these scopes");
  return consent_page(client, req, *who, params, lang);
}

}  // namespace

void register_authorize_routes(App& app) {
  app.router.add("GET", "/oauth/authorize",
                 [&app](Request& req) { return authorize(app, req, req.query, std::nullopt); });
  app.router.add("POST", "/oauth/authorize", [&app](Request& req) {
    auto form = parse_url_encoded(req.body);
    auto who = signed_in(app, req);
    auto csrf = form.find("csrf");
    auto decision = form.find("decision");
    if (!who || csrf == form.end() || !core::constant_time_equal(who->session.csrf_token, csrf->second) ||
        decision == form.end() || (decision->second != "allow" && decision->second != "deny")) {
      Lang lang = pick_lang("", req.header("accept-language"));
      Response r = html_page(403, texts(lang).error_title,
                             "<div class=\"card narrow\"><h1>" + html_escape(texts(lang).error_title) +
                                 "</h1><p class=\"lead\">The consent form was not sent by this site, or your "
                                 "session ended. Start again from the application.</p></div>");
      return r;
    }
    std::string d = decision->second;
    form.erase("csrf");
    form.erase("decision");
    return authorize(app, req, form, d);
  });
}

}  // namespace edge::oauth
