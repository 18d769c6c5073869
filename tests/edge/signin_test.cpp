// Browser sign-in of platform accounts: CSRF-protected forms, the session cookie's attributes, logout.

#include <doctest/doctest.h>

#include "test_edge.h"

using testing::Reply;
using testing::TestEdge;

namespace {

// The value of `name=` in a Set-Cookie header of `r` (all Set-Cookie headers are searched).
std::string set_cookie(const Reply& r, const std::string& name, std::string* whole = nullptr) {
  auto range = r.headers.equal_range("Set-Cookie");
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second.rfind(name + "=", 0) != 0) continue;
    if (whole) *whole = it->second;
    auto end = it->second.find(';');
    return it->second.substr(name.size() + 1, end - name.size() - 1);
  }
  return {};
}

// The value attribute of the hidden input `name` in an HTML page.
std::string hidden_field(const std::string& html, const std::string& name) {
  std::string marker = "name=\"" + name + "\" value=\"";
  auto at = html.find(marker);
  if (at == std::string::npos) return {};
  at += marker.size();
  return html.substr(at, html.find('"', at) - at);
}

Reply post_form(TestEdge& edge, const std::string& path, const std::string& form,
                const std::string& cookies) {
  return edge.send("POST", path, form, {{"Cookie", cookies}}, "application/x-www-form-urlencoded");
}

}  // namespace

TEST_CASE("sign in with the right password starts a session; the wrong one says nothing about the email") {
  TestEdge edge;
  auto page = edge.get("/login");
  REQUIRE(page.status == 200);
  std::string csrf = hidden_field(page.body, "csrf");
  REQUIRE(csrf.size() == 43);
  CHECK(set_cookie(page, "login_csrf") == csrf);
  std::string cookies = "login_csrf=" + csrf;

  auto wrong = post_form(edge, "/login",
                         "email=owner%40acme.test&password=nope&csrf=" + csrf + "&next=%2Faccount", cookies);
  CHECK(wrong.status == 401);
  CHECK(wrong.body.find("Email or password is incorrect.") != std::string::npos);
  CHECK(set_cookie(wrong, "platform_session").empty());
  auto unknown = post_form(edge, "/login", "email=nobody%40acme.test&password=nope&csrf=" + csrf, cookies);
  CHECK(unknown.status == 401);
  CHECK(unknown.body.find("Email or password is incorrect.") != std::string::npos);

  auto ok = post_form(
      edge, "/login",
      "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf + "&next=%2Faccount", cookies);
  CHECK(ok.status == 303);
  CHECK(ok.header("Location") == "/account");
  std::string attributes;
  std::string session = set_cookie(ok, "platform_session", &attributes);
  REQUIRE(session.rfind("ses_", 0) == 0);
  CHECK(attributes == "platform_session=" + session + "; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000");

  auto account = edge.send("GET", "/account", "", {{"Cookie", "platform_session=" + session}});
  CHECK(account.status == 200);
  CHECK(account.body.find("acme Owner") != std::string::npos);
  CHECK(account.body.find("<code>acme</code>") != std::string::npos);
}

TEST_CASE("a sign-in form without its CSRF cookie is refused") {
  TestEdge edge;
  auto page = edge.get("/login");
  std::string csrf = hidden_field(page.body, "csrf");
  auto forged =
      post_form(edge, "/login", "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf, "");
  CHECK(forged.status == 403);
  CHECK(set_cookie(forged, "platform_session").empty());
  auto mismatched =
      post_form(edge, "/login", "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf,
                "login_csrf=" + std::string(43, 'A'));
  CHECK(mismatched.status == 403);
}

TEST_CASE("next only redirects within the site") {
  TestEdge edge;
  auto page = edge.get("/login");
  std::string csrf = hidden_field(page.body, "csrf");
  auto ok = post_form(
      edge, "/login",
      "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf + "&next=%2F%2Fevil.example%2F",
      "login_csrf=" + csrf);
  CHECK(ok.status == 303);
  CHECK(ok.header("Location") == "/account");
}

TEST_CASE("next: known open-redirect bypasses all land on /account, over GET and POST") {
  TestEdge edge;
  auto page = edge.get("/login");
  std::string csrf = hidden_field(page.body, "csrf");
  auto signed_in = post_form(
      edge, "/login",
      "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf + "&next=%2F%09%2Fevil.example",
      "login_csrf=" + csrf);
  CHECK(signed_in.status == 303);
  CHECK(signed_in.header("Location") == "/account");
  std::string session = "platform_session=" + set_cookie(signed_in, "platform_session");
  REQUIRE(session.size() > 20);

  // Query-encoded `next` values; the comment is what the handler sees after decoding.
  const char* bypasses[] = {
      "/%09/evil.example",                           // /<TAB>/evil.example
      "%2F%0A%2Fevil.example",                       // /<LF>/evil.example
      "%2F%0D%0A%2Fevil.example",                    // /<CR><LF>/evil.example
      "%2F%5Cevil.example",                          // /\evil.example
      "%5C%2Fevil.example",                          // \/evil.example
      "/%2F/evil.example",                           // //evil.example
      "%2F%252F%2Fevil.example",                     // /%2F/evil.example
      "%2F%255C%2Fevil.example",                     // /%5C/evil.example
      "https%3A%2F%2Fevil.example%2F",               // https://evil.example/
      "https%3Aevil.example",                        // https:evil.example
      "javascript%3Aalert(1)",                       // javascript:alert(1)
      "%2F%2Fplatform.test%40evil.example",          // //platform.test@evil.example
      "https%3A%2F%2Fplatform.test%40evil.example",  // https://platform.test@evil.example
  };
  for (const char* next : bypasses) {
    auto r = edge.send("GET", std::string("/login?next=") + next, "", {{"Cookie", session}});
    CHECK_MESSAGE(r.status == 303, next);
    CHECK_MESSAGE(r.header("Location") == "/account", next);
  }
  // (httplib decodes Location when it reads it, so a path without escapes shows what was sent.)
  auto inside = edge.send("GET", "/login?next=%2Foauth%2Fauthorize%3Fclient_id%3Dapp%26state%3Dx", "",
                          {{"Cookie", session}});
  CHECK(inside.header("Location") == "/oauth/authorize?client_id=app&state=x");
  // The form carries the cleaned value, never the attacker's.
  auto form = edge.get("/login?next=/%09/evil.example");
  CHECK(hidden_field(form.body, "next") == "/account");
}

TEST_CASE("sign out needs the session's CSRF token and ends the session") {
  TestEdge edge;
  auto page = edge.get("/login");
  std::string csrf = hidden_field(page.body, "csrf");
  auto ok = post_form(edge, "/login", "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf,
                      "login_csrf=" + csrf);
  std::string cookie = "platform_session=" + set_cookie(ok, "platform_session");
  auto account = edge.send("GET", "/account", "", {{"Cookie", cookie}});
  std::string session_csrf = hidden_field(account.body, "csrf");
  REQUIRE_FALSE(session_csrf.empty());

  CHECK(post_form(edge, "/logout", "csrf=wrong", cookie).status == 403);
  CHECK(edge.send("GET", "/account", "", {{"Cookie", cookie}}).status == 200);  // still signed in

  auto out = post_form(edge, "/logout", "csrf=" + session_csrf, cookie);
  CHECK(out.status == 303);
  std::string attributes;
  set_cookie(out, "platform_session", &attributes);
  CHECK(attributes.find("Max-Age=0") != std::string::npos);
  auto after = edge.send("GET", "/account", "", {{"Cookie", cookie}});
  CHECK(after.status == 303);
  CHECK(after.header("Location") == "/login?next=/account");
}

TEST_CASE("the session cookie carries the configured domain and Secure on https") {
  edge::Config config;
  config.cookie_domain = ".platform.test";
  config.base_url = "https://platform.test";
  TestEdge edge(config);
  auto page = edge.get("/login");
  std::string csrf = hidden_field(page.body, "csrf");
  auto ok = post_form(edge, "/login", "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf,
                      "login_csrf=" + csrf);
  std::string attributes;
  std::string session = set_cookie(ok, "platform_session", &attributes);
  CHECK(attributes == "platform_session=" + session +
                          "; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000; Domain=.platform.test; Secure");
}

TEST_CASE("repeated failed sign-ins for one email are limited with Retry-After") {
  TestEdge edge;
  auto page = edge.get("/login");
  std::string csrf = hidden_field(page.body, "csrf");
  for (int i = 0; i < 10; ++i)
    CHECK(
        post_form(edge, "/login", "email=owner%40acme.test&password=wrong&csrf=" + csrf, "login_csrf=" + csrf)
            .status == 401);
  auto limited =
      post_form(edge, "/login", "email=owner%40acme.test&password=correct+horse+battery&csrf=" + csrf,
                "login_csrf=" + csrf);
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "90");
  CHECK(set_cookie(limited, "platform_session").empty());
}

TEST_CASE("the sign-in page speaks Turkish for ui_locales=tr or Accept-Language tr, errors included") {
  TestEdge edge;
  auto page = edge.get("/login?ui_locales=tr");
  CHECK(page.body.find("<html lang=\"tr\">") != std::string::npos);
  CHECK(page.body.find("<h1>Giriş yap</h1>") != std::string::npos);
  CHECK(page.body.find("<label for=\"password\">Şifre</label>") != std::string::npos);
  CHECK(hidden_field(page.body, "ui_locales") == "tr");
  std::string csrf = hidden_field(page.body, "csrf");
  auto wrong = post_form(edge, "/login", "email=owner%40acme.test&password=nope&ui_locales=tr&csrf=" + csrf,
                         "login_csrf=" + csrf);
  CHECK(wrong.status == 401);
  CHECK(wrong.body.find("E-posta veya şifre hatalı.") != std::string::npos);
  auto by_header = edge.send("GET", "/login", "", {{"Accept-Language", "tr-TR,tr;q=0.9"}});
  CHECK(by_header.header("Content-Language") == "tr");
  CHECK(edge.get("/login").header("Content-Language") == "en");
}
