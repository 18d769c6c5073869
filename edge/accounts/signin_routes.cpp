#include "edge/accounts/signin_routes.h"

#include "core/crypto.h"
#include "core/same_site_path.h"
#include "core/token.h"
#include "edge/accounts/session_cookie.h"
#include "edge/app.h"
#include "edge/pages/lang.h"
#include "edge/pages/layout.h"
#include "edge/platform/client_address.h"

namespace edge {
namespace {

constexpr const char* kLoginCsrfCookie = "login_csrf";

// Only paths of this site (core/same_site_path.h), so /login is no open redirect; anything else goes to the
// account page.
std::string safe_next(std::string_view next) {
  return core::is_same_site_path(next) ? std::string(next) : std::string("/account");
}

Response redirect(std::string location) {
  return redirect_response(303, std::move(location));
}

// The sign-in page's words, so an OAuth flow in Turkish stays in Turkish.
struct LoginTexts {
  std::string_view title, lead, email, password, submit, expired, too_many, busy, incorrect, failed;
};

const LoginTexts& login_texts(Lang lang) {
  static constexpr LoginTexts kEnglish{"Sign in",
                                       "Use your platform account.",
                                       "Email",
                                       "Password",
                                       "Sign in",
                                       "Your sign-in form expired. Please try again.",
                                       "Too many sign-in attempts. Please wait a moment.",
                                       "Signing in is busy right now. Please try again in a moment.",
                                       "Email or password is incorrect.",
                                       "Signing in failed. Please try again."};
  static constexpr LoginTexts kTurkish{"Giriş yap",
                                       "Platform hesabınızla giriş yapın.",
                                       "E-posta",
                                       "Şifre",
                                       "Giriş yap",
                                       "Giriş formunun süresi doldu. Lütfen tekrar deneyin.",
                                       "Çok fazla giriş denemesi. Lütfen biraz bekleyin.",
                                       "Giriş şu anda yoğun. Lütfen birazdan tekrar deneyin.",
                                       "E-posta veya şifre hatalı.",
                                       "Giriş yapılamadı. Lütfen tekrar deneyin."};
  return lang == Lang::tr ? kTurkish : kEnglish;
}

Response login_page(App& app, int status, std::string_view email, std::string_view next,
                    std::string_view error, Lang lang) {
  const LoginTexts& t = login_texts(lang);
  std::string csrf = core::make_token(core::TokenKind::csrf, app.random);
  std::string body = "<div class=\"card narrow\"><h1>" + std::string(t.title) + "</h1><p class=\"lead\">" +
                     std::string(t.lead) + "</p>";
  if (!error.empty()) body += "<div class=\"error\" role=\"alert\">" + html_escape(error) + "</div>";
  body +=
      "<form method=\"post\" action=\"/login\">"
      "<input type=\"hidden\" name=\"csrf\" value=\"" +
      csrf +
      "\">"
      "<input type=\"hidden\" name=\"next\" value=\"" +
      html_escape(next) + "\"><input type=\"hidden\" name=\"ui_locales\" value=\"" +
      std::string(lang_code(lang)) + "\"><label for=\"email\">" + std::string(t.email) +
      "</label>"
      "<input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"username\" required value=\"" +
      html_escape(email) +
      "\">"
      "<label for=\"password\">" +
      std::string(t.password) +
      "</label>"
      "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required>"
      "<button type=\"submit\">" +
      std::string(t.submit) + "</button></form></div>";
  Response r = html_page(status, t.title, body, lang_code(lang));
  // Double-submit token: a cross-site form cannot read this cookie to copy it into the field.
  r.set_header("Set-Cookie", std::string(kLoginCsrfCookie) + "=" + csrf +
                                 "; Path=/login; HttpOnly; SameSite=Lax; Max-Age=3600");
  return r;
}

Response account_page(App& app, const SignedIn& who) {
  std::string body = "<div class=\"card\"><h1>" + html_escape(who.user.name) + "</h1><p class=\"lead\">" +
                     html_escape(who.user.email) + "</p>";
  auto companies = app.accounts->companies_of(who.user.id);
  body += "<h2 style=\"font-size:16px;margin:18px 0 4px\">Companies</h2>";
  if (!companies || companies->empty()) {
    body += "<p class=\"muted\">You are not a member of any company yet.</p>";
  } else {
    body += "<table><thead><tr><th>Company</th><th>Slug</th><th>Role</th></tr></thead><tbody>";
    for (auto& [company, membership] : *companies)
      body += "<tr><td>" + html_escape(company.name) + "</td><td><code>" + html_escape(company.slug) +
              "</code></td><td><span class=\"pill\">" + std::string(core::role_name(membership.role)) +
              "</span></td></tr>";
    body += "</tbody></table>";
  }
  body +=
      "<form method=\"post\" action=\"/logout\" style=\"margin-top:24px\">"
      "<input type=\"hidden\" name=\"csrf\" value=\"" +
      who.session.csrf_token +
      "\">"
      "<button class=\"secondary\" type=\"submit\">Sign out</button></form></div>";
  return html_page(200, "Your account", body);
}

}  // namespace

void register_signin_routes(App& app) {
  Router& r = app.router;

  r.add("GET", "/", [&app](Request& req) { return redirect(signed_in(app, req) ? "/account" : "/login"); });

  r.add("GET", "/login", [&app](Request& req) {
    std::string next = safe_next(req.query_param("next").value_or("/account"));
    // force=1 (OpenID Connect prompt=login): sign in again even with a live session.
    if (req.query_param("force") != "1" && signed_in(app, req)) return redirect(next);
    Lang lang = pick_lang(req.query_param("ui_locales").value_or(""), req.header("accept-language"));
    return login_page(app, 200, "", next, "", lang);
  });

  r.add("POST", "/login", [&app](Request& req) {
    auto form = req.form();
    std::string email = form["email"], next = safe_next(form["next"]);
    Lang lang = pick_lang(form["ui_locales"], req.header("accept-language"));
    const LoginTexts& t = login_texts(lang);
    std::string cookie = req.cookie(kLoginCsrfCookie);
    if (cookie.empty() || !core::constant_time_equal(cookie, form["csrf"]))
      return login_page(app, 403, email, next, t.expired, lang);
    // Only failed attempts count (docs/accounts.md). Each attempt is counted before its hash, so parallel
    // guesses cannot all slip past the limit, and given back when it turns out not to be a failure.
    std::int64_t now = app.clock.now_ms();
    const std::string client = client_address(req, app.config.trusted_proxies);
    const std::string account = normalized_email(email);
    auto by_ip = app.login_ip_limiter.take(client, now);
    auto by_email = by_ip.allowed ? app.login_email_limiter.take(account, now) : by_ip;
    if (!by_email.allowed) {
      if (by_ip.allowed) app.login_ip_limiter.refund(client);
      Response limited = login_page(app, 429, email, next, t.too_many, lang);
      limited.set_header("Retry-After", std::to_string(by_email.retry_after_seconds));
      return limited;
    }
    auto not_counted = [&] {
      app.login_ip_limiter.refund(client);
      app.login_email_limiter.refund(account);
    };
    core::Result<User> user = core::make_error("busy", "");
    {
      // Unknown emails hash too (against a decoy), so they take a slot and the same time.
      HashSlots::Ticket slot = app.signin_hashes.acquire();
      if (!slot) {
        not_counted();
        Response busy = login_page(app, 503, email, next, t.busy, lang);
        busy.set_header("Retry-After", "1");
        return busy;
      }
      user = app.accounts->authenticate(email, form["password"]);
    }
    if (!user) {
      if (user.error().code == "invalid_credentials")
        return login_page(app, 401, email, next, t.incorrect, lang);
      not_counted();
      return login_page(app, 500, email, next, t.failed, lang);
    }
    // The account's failures end with a success; the address's other failures still count.
    app.login_email_limiter.forget(account);
    app.login_ip_limiter.refund(client);
    auto session = app.sessions->start(user->id);
    if (!session) return login_page(app, 500, email, next, t.failed, lang);
    Response ok = redirect(next);
    ok.set_header("Set-Cookie", session_cookie(app, *session, Sessions::kLifetimeMs / 1000));
    ok.set_header("Set-Cookie",
                  std::string(kLoginCsrfCookie) + "=; Path=/login; HttpOnly; SameSite=Lax; Max-Age=0");
    return ok;
  });

  r.add("POST", "/logout", [&app](Request& req) {
    auto who = signed_in(app, req);
    if (!who) return redirect("/login");
    if (!core::constant_time_equal(who->session.csrf_token, req.form()["csrf"]))
      return html_page(403, "Forbidden",
                       "<div class=\"card narrow\"><h1>Forbidden</h1><p class=\"lead\">"
                       "The sign-out form was not sent by this site.</p></div>");
    if (auto ended = app.sessions->end(req.cookie(Sessions::kCookieName)); !ended)
      return html_page(500, "Error", "<div class=\"card narrow\"><h1>Sign-out failed</h1></div>");
    Response r = redirect("/login");
    r.set_header("Set-Cookie", expired_session_cookie(app));
    return r;
  });

  r.add("GET", "/account", [&app](Request& req) {
    auto who = signed_in(app, req);
    if (!who) return redirect("/login?next=/account");
    return account_page(app, *who);
  });
}

}  // namespace edge
