// Document 1 over real HTTP: every row of the States and Errors tables, and the negatives of the issue.

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "core/jwt.h"
#include "core/pkce.h"
#include "oauth_flow.h"

using testing::location_query;
using testing::OAuthFlow;
using testing::Reply;
using testing::str_of;
using testing::TestEdge;
namespace json = core::json;

namespace {

Reply userinfo(TestEdge& edge, const std::string& access) {
  return edge.send("GET", "/oauth/userinfo", "", {{"Authorization", "Bearer " + access}});
}

const std::string kVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const std::string kChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

}  // namespace

TEST_CASE("code exchange returns the documented fields; the id_token carries the claims and the nonce") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  std::string code = rp.code_for({{"state", "xyz"},
                                  {"nonce", "n-0S6"},
                                  {"scope", "openid profile email offline_access"},
                                  {"prompt", "consent"}});
  CHECK(code.rfind("oac_", 0) == 0);
  auto r =
      rp.token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", rp.redirect_uri}});
  REQUIRE_MESSAGE(r.status == 200, r.body);
  CHECK(r.header("Cache-Control") == "no-store");
  std::string access = str_of(r, "access_token"), refresh = str_of(r, "refresh_token");
  CHECK(access.rfind("oat_", 0) == 0);
  CHECK(refresh.rfind("ort_", 0) == 0);
  CHECK(str_of(r, "token_type") == "Bearer");
  CHECK(r.json.at("expires_in").as_int64() == 3600);
  CHECK(str_of(r, "scope") == "email offline_access openid profile");

  auto jwt = core::verify_hs256(str_of(r, "id_token"), "");
  CHECK_FALSE(jwt.ok());  // not signed with an empty secret
  auto decoded = core::decode_jwt(str_of(r, "id_token"));
  REQUIRE(decoded.ok());
  CHECK(decoded->header.at("alg").as_string() == "HS256");
  const auto& c = decoded->claims;
  CHECK(c.at("iss").as_string() == edge.url());
  CHECK(c.at("aud").as_string() == rp.client_id);
  CHECK(c.at("sub").as_string() == edge.acme_owner_id);
  CHECK(c.at("nonce").as_string() == "n-0S6");
  CHECK(c.at("email").as_string() == "owner@acme.test");
  CHECK(c.at("email_verified").as_bool() == false);
  CHECK(c.at("name").as_string() == "acme Owner");
  CHECK(c.at("preferred_username").as_string() == "owner");
  CHECK(c.at("exp").as_int64() == c.at("iat").as_int64() + 3600);
  CHECK(c.at("iat").as_int64() == TestEdge::kStart / 1000);
  CHECK(c.contains("auth_time"));

  auto info = userinfo(edge, access);
  REQUIRE(info.status == 200);
  CHECK(info.json.at("sub").as_string() == edge.acme_owner_id);
  CHECK(info.json.at("email").as_string() == "owner@acme.test");
  CHECK_FALSE(info.json.as_object().contains("picture"));  // none: left out (OIDC Core §5.3.2)
}

TEST_CASE("without offline_access there is no refresh token, and scopes decide the userinfo claims") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto r = rp.token({{"grant_type", "authorization_code"},
                     {"code", rp.code_for({{"scope", "openid"}})},
                     {"redirect_uri", rp.redirect_uri}});
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.get_object().contains("refresh_token"));
  auto info = userinfo(edge, str_of(r, "access_token"));
  CHECK(info.body == R"({"sub":")" + edge.acme_owner_id + R"("})");
}

TEST_CASE("successful redirects carry code, state and iss (RFC 9207)") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.sign_in();
  auto page = rp.authorize({{"state", "s1"}});
  REQUIRE(page.status == 200);
  CHECK(page.body.find("Recipe Box") != std::string::npos);
  CHECK(page.body.find("Your email address") != std::string::npos);
  auto r = rp.decide(page, "allow");
  REQUIRE(r.status == 302);
  CHECK(r.header("Location").rfind(rp.redirect_uri + "?code=oac_", 0) == 0);
  auto q = location_query(r);
  CHECK(q["state"] == "s1");
  CHECK(q["iss"] == edge.url());
}

TEST_CASE("the consent page speaks Turkish when asked") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.sign_in();
  auto page = rp.authorize({{"ui_locales", "tr"}});
  REQUIRE(page.status == 200);
  CHECK(page.body.find("hesabınıza erişmek istiyor") != std::string::npos);
  CHECK(page.body.find("E-posta adresiniz") != std::string::npos);
  CHECK(page.header("Content-Language") == "tr");
  auto by_header = edge.send("GET",
                             "/oauth/authorize?" + testing::form_encode({{"client_id", rp.client_id},
                                                                         {"redirect_uri", rp.redirect_uri},
                                                                         {"response_type", "code"},
                                                                         {"scope", "openid"}}),
                             "", {{"Cookie", rp.cookie}, {"Accept-Language", "tr-TR,tr;q=0.9,en;q=0.8"}});
  CHECK(by_header.header("Content-Language") == "tr");
}

TEST_CASE("deny redirects with access_denied") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.sign_in();
  auto r = rp.decide(rp.authorize({{"state", "s"}}), "deny");
  REQUIRE(r.status == 302);
  auto q = location_query(r);
  CHECK(q["error"] == "access_denied");
  CHECK(q["state"] == "s");
  CHECK(q["iss"] == edge.url());
}

TEST_CASE("unknown client_id or an unregistered redirect_uri: a 400 page and never a redirect") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.sign_in();
  auto unknown = rp.authorize({{"client_id", "cli_nobodyatall0000"}});
  CHECK(unknown.status == 400);
  CHECK(unknown.header("Location").empty());
  CHECK(unknown.body.find("unknown client_id") != std::string::npos);
  auto unregistered = rp.authorize({{"redirect_uri", "https://evil.example/callback"}});
  CHECK(unregistered.status == 400);
  CHECK(unregistered.header("Location").empty());
  // Exact string matching: a trailing slash or another case is another URI.
  CHECK(rp.authorize({{"redirect_uri", rp.redirect_uri + "/"}}).status == 400);
  CHECK(rp.authorize({{"redirect_uri", "https://RP.example/callback"}}).status == 400);
  CHECK(rp.authorize({{"redirect_uri", rp.redirect_uri + "?x=1"}}).status == 400);
}

TEST_CASE("scope errors redirect with invalid_scope: outside the allow-list, missing openid") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client(R"(,"scopes":["openid","profile"])");
  rp.sign_in();
  auto outside = rp.authorize({{"scope", "openid email"}, {"state", "q"}});
  REQUIRE(outside.status == 302);
  auto q = location_query(outside);
  CHECK(q["error"] == "invalid_scope");
  CHECK(q["error_description"] == "scope 'email' is not allowed for this client");
  CHECK(q["state"] == "q");
  auto offline = rp.authorize({{"scope", "openid offline_access"}});
  CHECK(location_query(offline)["error"] == "invalid_scope");
  auto no_openid = rp.authorize({{"scope", "profile"}});
  CHECK(location_query(no_openid)["error"] == "invalid_scope");
  CHECK(location_query(no_openid)["error_description"] == "scope must include openid");
  auto bad_type = rp.authorize({{"response_type", "token"}});
  CHECK(location_query(bad_type)["error"] == "unsupported_response_type");
}

TEST_CASE("an authorization code is single use: a replay answers invalid_grant and revokes its tokens") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  std::string code = rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}});
  auto first =
      rp.token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", rp.redirect_uri}});
  REQUIRE(first.status == 200);
  CHECK(userinfo(edge, str_of(first, "access_token")).status == 200);
  auto replay =
      rp.token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", rp.redirect_uri}});
  CHECK(replay.status == 400);
  CHECK(replay.body ==
        R"({"error":"invalid_grant","error_description":"authorization code was already used"})");
  CHECK(userinfo(edge, str_of(first, "access_token")).status == 401);
  auto refresh =
      rp.token({{"grant_type", "refresh_token"}, {"refresh_token", str_of(first, "refresh_token")}});
  CHECK(refresh.status == 400);
  CHECK(str_of(refresh, "error") == "invalid_grant");
}

TEST_CASE("a code expires after 10 minutes") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  std::string code = rp.code_for();
  edge.clock.advance_ms(10 * 60 * 1000);
  auto r =
      rp.token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", rp.redirect_uri}});
  CHECK(r.status == 400);
  CHECK(str_of(r, "error") == "invalid_grant");
  CHECK(str_of(r, "error_description") == "authorization code has expired");
  std::string fresh = rp.code_for();
  edge.clock.advance_ms(10 * 60 * 1000 - 1);
  CHECK(rp.token({{"grant_type", "authorization_code"}, {"code", fresh}, {"redirect_uri", rp.redirect_uri}})
            .status == 200);
}

TEST_CASE("the code is bound to its client and redirect_uri") {
  TestEdge edge;
  OAuthFlow rp(edge), other(edge);
  rp.register_client();
  other.register_client();
  std::string code = rp.code_for();
  auto wrong_client =
      other.token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", rp.redirect_uri}});
  CHECK(str_of(wrong_client, "error") == "invalid_grant");
  auto wrong_uri = rp.token(
      {{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", "https://rp.example/other"}});
  CHECK(str_of(wrong_uri, "error") == "invalid_grant");
  CHECK(str_of(wrong_uri, "error_description") == "redirect_uri does not match the authorization request");
  // Neither attempt consumed it.
  CHECK(rp.token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", rp.redirect_uri}})
            .status == 200);
}

TEST_CASE(
    "PKCE: S256 verified, plain refused, a verifier without a challenge refused, public clients must use "
    "it") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  std::string code = rp.code_for({{"code_challenge", kChallenge}, {"code_challenge_method", "S256"}});
  auto missing =
      rp.token({{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", rp.redirect_uri}});
  CHECK(str_of(missing, "error_description") == "code_verifier is required");
  auto mismatch = rp.token({{"grant_type", "authorization_code"},
                            {"code", code},
                            {"redirect_uri", rp.redirect_uri},
                            {"code_verifier", std::string(43, 'a')}});
  CHECK(str_of(mismatch, "error") == "invalid_grant");
  CHECK(str_of(mismatch, "error_description") == "code_verifier does not match the code_challenge");
  auto ok = rp.token({{"grant_type", "authorization_code"},
                      {"code", code},
                      {"redirect_uri", rp.redirect_uri},
                      {"code_verifier", kVerifier}});
  CHECK(ok.status == 200);

  rp.sign_in();
  auto plain = rp.authorize({{"code_challenge", kVerifier}, {"code_challenge_method", "plain"}});
  CHECK(location_query(plain)["error"] == "invalid_request");
  CHECK(location_query(plain)["error_description"] == "code_challenge_method must be S256");
  auto no_method = rp.authorize({{"code_challenge", kChallenge}});
  CHECK(location_query(no_method)["error"] == "invalid_request");

  std::string plain_code = rp.code_for();
  auto stray = rp.token({{"grant_type", "authorization_code"},
                         {"code", plain_code},
                         {"redirect_uri", rp.redirect_uri},
                         {"code_verifier", kVerifier}});
  CHECK(str_of(stray, "error_description") == "code_verifier sent but no code_challenge was");

  OAuthFlow spa(edge);
  spa.register_client("", true);
  spa.cookie = rp.cookie;
  auto no_pkce = spa.authorize({});
  CHECK(location_query(no_pkce)["error_description"] ==
        "PKCE (code_challenge with S256) is required for public clients");
  std::string spa_code = spa.code_for({{"code_challenge", kChallenge}, {"code_challenge_method", "S256"}});
  auto spa_token = edge.send("POST", "/oauth/token",
                             testing::form_encode({{"grant_type", "authorization_code"},
                                                   {"code", spa_code},
                                                   {"redirect_uri", spa.redirect_uri},
                                                   {"client_id", spa.client_id},
                                                   {"code_verifier", kVerifier}}),
                             {}, "application/x-www-form-urlencoded");
  CHECK(spa_token.status == 200);
}

TEST_CASE("client authentication: Basic or form, never both; failures answer 401 invalid_client") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  std::string code = rp.code_for();
  auto form = edge.send("POST", "/oauth/token",
                        testing::form_encode({{"grant_type", "authorization_code"},
                                              {"code", code},
                                              {"redirect_uri", rp.redirect_uri},
                                              {"client_id", rp.client_id},
                                              {"client_secret", rp.client_secret}}),
                        {}, "application/x-www-form-urlencoded");
  CHECK(form.status == 200);
  OAuthFlow wrong = rp;
  wrong.client_secret = "ocs_" + std::string(43, 'x');
  auto bad = wrong.token(
      {{"grant_type", "authorization_code"}, {"code", rp.code_for()}, {"redirect_uri", rp.redirect_uri}});
  CHECK(bad.status == 401);
  CHECK(bad.header("WWW-Authenticate") == "Basic realm=\"oauth\"");
  CHECK(str_of(bad, "error") == "invalid_client");
  auto both = rp.token(
      {{"grant_type", "refresh_token"}, {"refresh_token", "x"}, {"client_secret", rp.client_secret}});
  CHECK(both.status == 400);
  CHECK(str_of(both, "error") == "invalid_request");
  auto none = edge.send("POST", "/oauth/token", "grant_type=refresh_token&refresh_token=x", {},
                        "application/x-www-form-urlencoded");
  CHECK(none.status == 401);
  auto unsupported = rp.token({{"grant_type", "password"}});
  CHECK(str_of(unsupported, "error") == "unsupported_grant_type");
}

TEST_CASE("refresh rotates on every use; a replay revokes the whole family") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto first = rp.token({{"grant_type", "authorization_code"},
                         {"code", rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}})},
                         {"redirect_uri", rp.redirect_uri}});
  std::string r1 = str_of(first, "refresh_token");
  auto second = rp.token({{"grant_type", "refresh_token"}, {"refresh_token", r1}});
  REQUIRE(second.status == 200);
  std::string r2 = str_of(second, "refresh_token"), a2 = str_of(second, "access_token");
  CHECK(r2 != r1);
  CHECK(r2.rfind("ort_", 0) == 0);
  CHECK(second.json.get_object().contains("id_token"));
  CHECK(userinfo(edge, a2).status == 200);

  auto replay = rp.token({{"grant_type", "refresh_token"}, {"refresh_token", r1}});
  CHECK(replay.status == 400);
  CHECK(str_of(replay, "error") == "invalid_grant");
  // The family is gone: the rotated token and every access token of the family.
  CHECK(str_of(rp.token({{"grant_type", "refresh_token"}, {"refresh_token", r2}}), "error") ==
        "invalid_grant");
  CHECK(userinfo(edge, a2).status == 401);
  CHECK(userinfo(edge, str_of(first, "access_token")).status == 401);
}

TEST_CASE("20 concurrent refreshes with one token: exactly one succeeds") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto first = rp.token({{"grant_type", "authorization_code"},
                         {"code", rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}})},
                         {"redirect_uri", rp.redirect_uri}});
  std::string refresh = str_of(first, "refresh_token");
  std::atomic<int> ok{0}, refused{0};
  std::vector<std::thread> threads;
  std::string body = testing::form_encode({{"grant_type", "refresh_token"},
                                           {"refresh_token", refresh},
                                           {"client_id", rp.client_id},
                                           {"client_secret", rp.client_secret}});
  for (int i = 0; i < 20; ++i) {
    threads.emplace_back([&] {
      httplib::Client c("127.0.0.1", edge.server->port());
      auto res = c.Post("/oauth/token", body, "application/x-www-form-urlencoded");
      if (res && res->status == 200)
        ++ok;
      else if (res && res->status == 400 && res->body.find("invalid_grant") != std::string::npos)
        ++refused;
    });
  }
  for (auto& t : threads) t.join();
  CHECK(ok == 1);
  CHECK(refused == 19);
}

TEST_CASE("refresh with a narrower scope; a wider one is invalid_scope") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto first =
      rp.token({{"grant_type", "authorization_code"},
                {"code", rp.code_for({{"scope", "openid email offline_access"}, {"prompt", "consent"}})},
                {"redirect_uri", rp.redirect_uri}});
  auto wider = rp.token({{"grant_type", "refresh_token"},
                         {"refresh_token", str_of(first, "refresh_token")},
                         {"scope", "openid profile"}});
  CHECK(str_of(wider, "error") == "invalid_scope");
  auto narrower = rp.token({{"grant_type", "refresh_token"},
                            {"refresh_token", str_of(first, "refresh_token")},
                            {"scope", "openid"}});
  REQUIRE(narrower.status == 200);
  CHECK(str_of(narrower, "scope") == "openid");
}

TEST_CASE("revoke: by its client, always 200, unknown tokens too; another client's token is left alone") {
  TestEdge edge;
  OAuthFlow rp(edge), other(edge);
  rp.register_client();
  other.register_client();
  auto t = rp.token({{"grant_type", "authorization_code"},
                     {"code", rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}})},
                     {"redirect_uri", rp.redirect_uri}});
  std::string access = str_of(t, "access_token"), refresh = str_of(t, "refresh_token");
  CHECK(rp.post_form("/oauth/revoke", {{"token", "oat_unknown"}}).status == 200);
  auto foreign = other.post_form("/oauth/revoke", {{"token", access}});
  CHECK(foreign.status == 200);
  CHECK(userinfo(edge, access).status == 200);
  CHECK(rp.post_form("/oauth/revoke", {{"token", access}, {"token_type_hint", "access_token"}}).status ==
        200);
  CHECK(userinfo(edge, access).status == 401);
  CHECK(rp.post_form("/oauth/revoke", {{"token", refresh}, {"token_type_hint", "refresh_token"}}).status ==
        200);
  CHECK(str_of(rp.token({{"grant_type", "refresh_token"}, {"refresh_token", refresh}}), "error") ==
        "invalid_grant");
  CHECK(rp.post_form("/oauth/revoke", {}).status == 400);
}

TEST_CASE("introspect: active with the RFC 7662 fields for its own client, inactive for another client") {
  TestEdge edge;
  OAuthFlow rp(edge), other(edge);
  rp.register_client();
  other.register_client();
  auto t = rp.token(
      {{"grant_type", "authorization_code"}, {"code", rp.code_for()}, {"redirect_uri", rp.redirect_uri}});
  std::string access = str_of(t, "access_token");
  auto mine = rp.post_form("/oauth/introspect", {{"token", access}});
  REQUIRE(mine.status == 200);
  CHECK(mine.json.at("active").as_bool());
  CHECK(mine.json.at("scope").as_string() == "email openid profile");
  CHECK(mine.json.at("client_id").as_string() == rp.client_id);
  CHECK(mine.json.at("sub").as_string() == edge.acme_owner_id);
  CHECK(mine.json.at("token_type").as_string() == "Bearer");
  CHECK(mine.json.at("iat").as_int64() == TestEdge::kStart / 1000);
  CHECK(mine.json.at("exp").as_int64() == TestEdge::kStart / 1000 + 3600);
  CHECK(other.post_form("/oauth/introspect", {{"token", access}}).body == R"({"active":false})");
  CHECK(rp.post_form("/oauth/introspect", {{"token", "oat_nothing"}}).body == R"({"active":false})");
  edge.clock.advance_ms(3600 * 1000);
  CHECK(rp.post_form("/oauth/introspect", {{"token", access}}).body == R"({"active":false})");
  CHECK(userinfo(edge, access).status == 401);
}

TEST_CASE(
    "consent is remembered for the same or narrower scopes and asked again for more or prompt=consent") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.code_for({{"scope", "openid profile"}});
  auto same = rp.authorize({{"scope", "openid profile"}});
  CHECK(same.status == 302);
  CHECK(location_query(same).count("code") == 1);
  CHECK(rp.authorize({{"scope", "openid"}}).status == 302);
  CHECK(rp.authorize({{"scope", "openid profile email"}}).status == 200);  // consent page again
  CHECK(rp.authorize({{"scope", "openid"}, {"prompt", "consent"}}).status == 200);
}

TEST_CASE("prompt=none answers login_required and consent_required instead of showing pages") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto anonymous = rp.authorize({{"prompt", "none"}, {"state", "p"}});
  REQUIRE(anonymous.status == 302);
  CHECK(location_query(anonymous)["error"] == "login_required");
  CHECK(location_query(anonymous)["state"] == "p");
  rp.sign_in();
  CHECK(location_query(rp.authorize({{"prompt", "none"}}))["error"] == "consent_required");
  rp.code_for();
  auto silent = rp.authorize({{"prompt", "none"}});
  CHECK(location_query(silent).count("code") == 1);
}

TEST_CASE("without a session authorize sends the browser to the login page and back") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto r = rp.authorize({{"state", "abc"}});
  REQUIRE(r.status == 302);
  std::string loc = r.header("Location");
  // (cpp-httplib's client decodes %XX in Location; on the wire it is /login?next=%2Foauth%2Fauthorize%3F...)
  CHECK(loc.rfind("/login?next=/oauth/authorize?", 0) == 0);
  auto forced = [&] {
    rp.sign_in();
    return rp.authorize({{"prompt", "login"}});
  }();
  REQUIRE(forced.status == 302);
  CHECK(forced.header("Location").rfind("/login?force=1&next=", 0) == 0);
  CHECK(forced.header("Location").find("login_request") != std::string::npos);
}

TEST_CASE(
    "revoking consent on the connected-apps page cascades: userinfo 401, refresh invalid_grant, consent "
    "again") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.token({{"grant_type", "authorization_code"},
                     {"code", rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}})},
                     {"redirect_uri", rp.redirect_uri}});
  auto page = edge.send("GET", "/en/profile/connected-apps", "", {{"Cookie", rp.cookie}});
  REQUIRE(page.status == 200);
  CHECK(page.body.find("Recipe Box") != std::string::npos);
  CHECK(page.body.find("Stay connected when you are away") != std::string::npos);
  auto tr = edge.send("GET", "/tr/profile/connected-apps", "", {{"Cookie", rp.cookie}});
  CHECK(tr.body.find("Bağlı uygulamalar") != std::string::npos);
  std::string csrf = testing::hidden_value(page.body, "csrf");
  auto revoke = edge.send("POST", "/en/profile/connected-apps/revoke",
                          testing::form_encode({{"csrf", csrf}, {"client_id", rp.client_id}}),
                          {{"Cookie", rp.cookie}}, "application/x-www-form-urlencoded");
  CHECK(revoke.status == 303);
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 401);
  CHECK(str_of(rp.token({{"grant_type", "refresh_token"}, {"refresh_token", str_of(t, "refresh_token")}}),
               "error") == "invalid_grant");
  CHECK(rp.authorize({{"scope", "openid"}}).status == 200);
  auto after = edge.send("GET", "/en/profile/connected-apps", "", {{"Cookie", rp.cookie}});
  CHECK(after.body.find("No application has access to your account.") != std::string::npos);
  auto forged = edge.send("POST", "/en/profile/connected-apps/revoke",
                          testing::form_encode({{"csrf", "x"}, {"client_id", rp.client_id}}),
                          {{"Cookie", rp.cookie}}, "application/x-www-form-urlencoded");
  CHECK(forged.status == 403);
}

TEST_CASE(
    "end-session revokes the pair's tokens and redirects only to a registered post_logout_redirect_uri") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.token({{"grant_type", "authorization_code"},
                     {"code", rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}})},
                     {"redirect_uri", rp.redirect_uri}});
  std::string id_token = str_of(t, "id_token");
  auto unregistered = edge.get("/oauth/end-session?" +
                               testing::form_encode({{"id_token_hint", id_token},
                                                     {"post_logout_redirect_uri", "https://evil.example/"}}));
  CHECK(unregistered.status == 400);
  CHECK(unregistered.header("Location").empty());
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 200);  // nothing revoked by a refused request
  auto ok = edge.send("POST", "/oauth/end-session",
                      testing::form_encode({{"id_token_hint", id_token},
                                            {"post_logout_redirect_uri", "https://rp.example/bye"},
                                            {"state", "st"}}),
                      {{"Cookie", rp.cookie}}, "application/x-www-form-urlencoded");
  REQUIRE(ok.status == 302);
  CHECK(ok.header("Location") == "https://rp.example/bye?state=st");
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 401);
  CHECK(str_of(rp.token({{"grant_type", "refresh_token"}, {"refresh_token", str_of(t, "refresh_token")}}),
               "error") == "invalid_grant");
  CHECK(edge.get("/oauth/end-session?id_token_hint=garbage").status == 400);
}

TEST_CASE("userinfo without, with a malformed or an unknown token answers 401 with WWW-Authenticate") {
  TestEdge edge;
  auto none = edge.get("/oauth/userinfo");
  CHECK(none.status == 401);
  CHECK(none.header("WWW-Authenticate") == "Bearer");
  auto unknown = userinfo(edge, "oat_" + std::string(43, 'A'));
  CHECK(unknown.status == 401);
  CHECK(unknown.header("WWW-Authenticate").rfind("Bearer error=\"invalid_token\"", 0) == 0);
}

TEST_CASE("discovery and JWKS in HS256 mode: no jwks_uri, empty key set") {
  TestEdge edge;
  auto d = edge.get("/.well-known/openid-configuration");
  REQUIRE(d.status == 200);
  const auto& o = d.json.as_object();
  CHECK(o.at("issuer").as_string() == edge.url());
  CHECK(o.at("authorization_endpoint").as_string() == edge.url() + "/oauth/authorize");
  CHECK(o.at("token_endpoint").as_string() == edge.url() + "/oauth/token");
  CHECK(o.at("end_session_endpoint").as_string() == edge.url() + "/oauth/end-session");
  CHECK_FALSE(o.contains("jwks_uri"));
  CHECK(o.at("id_token_signing_alg_values_supported") == json::array{"HS256"});
  CHECK(o.at("code_challenge_methods_supported") == json::array{"S256"});
  CHECK(o.at("authorization_response_iss_parameter_supported").as_bool());
  for (const char* key : {"userinfo_endpoint", "revocation_endpoint", "introspection_endpoint",
                          "response_types_supported", "grant_types_supported", "subject_types_supported",
                          "scopes_supported", "claims_supported", "token_endpoint_auth_methods_supported"})
    CHECK_MESSAGE(o.contains(key), key);
  CHECK(edge.get("/.well-known/jwks.json").body == R"({"keys":[]})");
}

TEST_CASE("the token endpoint is rate limited per client with Retry-After") {
  edge::Config config;
  config.oauth_token_rate_limit = {2, 1000};
  TestEdge edge(config);
  OAuthFlow rp(edge);
  rp.register_client();
  CHECK(rp.token({{"grant_type", "refresh_token"}, {"refresh_token", "x"}}).status == 400);
  CHECK(rp.token({{"grant_type", "refresh_token"}, {"refresh_token", "x"}}).status == 400);
  auto limited = rp.token({{"grant_type", "refresh_token"}, {"refresh_token", "x"}});
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "1");
}

TEST_CASE(
    "OAuth client registration: secret once, hashed, rotatable; validation; another company's client is "
    "404") {
  TestEdge edge;
  auto created = edge.post("/api/companies/acme/oauth-clients",
                           R"({"name":"App","redirectUris":["https://a.example/cb"],"scopes":["openid"]})",
                           edge.acme_token);
  REQUIRE(created.status == 201);
  std::string id(created.data().at("clientId").as_string());
  std::string secret(created.data().at("clientSecret").as_string());
  CHECK(secret.rfind("ocs_", 0) == 0);
  auto shown = edge.get("/api/companies/acme/oauth-clients/" + id, edge.acme_token);
  CHECK(shown.body.find(secret) == std::string::npos);
  CHECK_FALSE(shown.data().as_object().contains("clientSecret"));
  auto rotated = edge.post("/api/companies/acme/oauth-clients/" + id + "/rotate-secret", "", edge.acme_token);
  REQUIRE(rotated.status == 200);
  CHECK(rotated.data().at("clientSecret").as_string() != secret);
  CHECK(edge.get("/api/companies/globex/oauth-clients/" + id, edge.globex_token).status == 404);
  auto frag = edge.post("/api/companies/acme/oauth-clients",
                        R"({"name":"x","redirectUris":["https://a.example/cb#f"]})", edge.acme_token);
  CHECK(frag.status == 400);
  auto no_openid = edge.post("/api/companies/acme/oauth-clients",
                             R"({"name":"x","redirectUris":["https://a.example/cb"],"scopes":["profile"]})",
                             edge.acme_token);
  CHECK(no_openid.error() == "field 'scopes' must include openid");
  auto missing = edge.post("/api/companies/acme/oauth-clients", R"({"name":"x"})", edge.acme_token);
  CHECK(missing.error() == "field 'redirectUris' is required");
}

TEST_CASE("expired codes and tokens are swept a day after expiry, with their indexes; live ones stay") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto first = rp.token({{"grant_type", "authorization_code"},
                         {"code", rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}})},
                         {"redirect_uri", rp.redirect_uri}});
  std::string old_access = str_of(first, "access_token"), refresh = str_of(first, "refresh_token");
  std::string unused_code = rp.code_for();
  auto& store = *edge.server->app().oauth;
  CHECK(*store.sweep() == 0);  // nothing has expired yet

  // 1 hour + 1 day later: the access token and both codes are past expiry plus the grace; the refresh
  // token (30 days) is not.
  edge.clock.advance_ms(3600 * 1000 + edge::oauth::OAuthStore::kSweepGraceMs + 1);
  CHECK(*store.sweep() == 3);  // two codes (one used, one not) and the first access token
  CHECK_FALSE(store.token(old_access)->has_value());
  CHECK(store.token(refresh)->has_value());
  auto late = rp.token(
      {{"grant_type", "authorization_code"}, {"code", unused_code}, {"redirect_uri", rp.redirect_uri}});
  CHECK(str_of(late, "error_description") == "authorization code is unknown");
  auto renewed = rp.token({{"grant_type", "refresh_token"}, {"refresh_token", refresh}});
  REQUIRE(renewed.status == 200);
  CHECK(userinfo(edge, str_of(renewed, "access_token")).status == 200);
  // End-session still finds every token of the pair through the grant index (no dangling entries).
  CHECK(store.revoke_pair(edge.acme_owner_id, rp.client_id).ok());
  CHECK(userinfo(edge, str_of(renewed, "access_token")).status == 401);
}

TEST_CASE("authorize with ui_locales=tr sends the browser to a Turkish sign-in page") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto r = rp.authorize({{"ui_locales", "tr"}});
  REQUIRE(r.status == 302);
  CHECK(r.header("Location").rfind("/login?ui_locales=tr&next=", 0) == 0);
}
