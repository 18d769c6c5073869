// {site_url}/{lang}/profile/connected-apps: the apps a user signed into, what they may see, and Revoke
// (document 1, "User-side page"; the cascade of the States table).

#include "core/crypto.h"
#include "core/date.h"
#include "edge/accounts/session_cookie.h"
#include "edge/app.h"
#include "edge/oauth/oauth_http.h"
#include "edge/oauth/oauth_routes.h"
#include "edge/oauth/texts.h"
#include "edge/pages/layout.h"

namespace edge::oauth {
namespace {

std::optional<Lang> lang_of(std::string_view segment) {
  if (segment == "en") return Lang::en;
  if (segment == "tr") return Lang::tr;
  return std::nullopt;
}

Response see_other(std::string location) {
  return redirect_response(303, std::move(location));
}

Response apps_page(App& app, const SignedIn& who, Lang lang) {
  const Texts& t = texts(lang);
  std::string path = "/" + std::string(lang_code(lang)) + "/profile/connected-apps";
  std::string body = "<div class=\"card\"><h1>" + html_escape(t.apps_title) + "</h1><p class=\"lead\">" +
                     html_escape(t.apps_lead) + "</p>";
  auto consents = app.oauth->consents_of(who.user.id);
  if (!consents || consents->empty()) {
    body += "<p class=\"muted\" id=\"no-apps\">" + html_escape(t.apps_none) + "</p>";
  } else {
    body += "<ul class=\"apps\">";
    for (auto& c : *consents) {
      auto client = app.oauth->client(c.client_id);
      std::string name = client ? client->name : c.client_id;
      body += "<li class=\"app\" data-client-id=\"" + html_escape(c.client_id) + "\"><div><strong>" +
              html_escape(name) + "</strong><div class=\"muted\">" + html_escape(t.granted_on) + " " +
              core::format_timestamp(c.granted_at).substr(0, 10) + "</div><ul class=\"scopes\">";
      for (auto& s : in_reading_order(c.scopes)) body += "<li>" + html_escape(scope_words(lang, s)) + "</li>";
      body += "</ul></div><form method=\"post\" action=\"" + path +
              "/revoke\">"
              "<input type=\"hidden\" name=\"csrf\" value=\"" +
              who.session.csrf_token +
              "\">"
              "<input type=\"hidden\" name=\"client_id\" value=\"" +
              html_escape(c.client_id) +
              "\">"
              "<button type=\"submit\" class=\"secondary\" aria-label=\"" +
              html_escape(t.revoke) + ": " + html_escape(name) + "\">" + html_escape(t.revoke) +
              "</button></form></li>";
    }
    body += "</ul>";
  }
  body += "</div>";
  return html_page(200, t.apps_title, body, lang_code(lang));
}

}  // namespace

void register_connected_apps_routes(App& app) {
  app.router.add("GET", "/{lang}/profile/connected-apps", [&app](Request& req) -> Response {
    auto lang = lang_of(req.param("lang"));
    if (!lang) return error_for_path(req, 404, "not found");
    auto who = signed_in(app, req);
    if (!who) return see_other("/login?next=" + url_encode(req.path));
    return apps_page(app, *who, *lang);
  });
  app.router.add("POST", "/{lang}/profile/connected-apps/revoke", [&app](Request& req) -> Response {
    auto lang = lang_of(req.param("lang"));
    if (!lang) return error_for_path(req, 404, "not found");
    std::string back = "/" + std::string(lang_code(*lang)) + "/profile/connected-apps";
    auto who = signed_in(app, req);
    if (!who) return see_other("/login?next=" + url_encode(back));
    auto form = req.form();
    if (!core::constant_time_equal(who->session.csrf_token, form["csrf"]))
      return html_page(403, texts(*lang).error_title,
                       "<div class=\"card narrow\"><h1>403</h1><p class=\"lead\">The form was not sent by "
                       "this site.</p></div>");
    // Deletes the consent and revokes every token of the pair: userinfo answers 401 at once, refresh
    // answers invalid_grant, the next authorize shows the consent screen again.
    auto revoked = app.oauth->revoke_consent(who->user.id, form["client_id"]);
    if (!revoked && revoked.error().code != "not_found") return error_for_path(req, 500, "storage failure");
    return see_other(back);
  });
}

}  // namespace edge::oauth
