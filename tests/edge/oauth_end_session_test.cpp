// RP-Initiated Logout 1.0 §2-§3 over real HTTP: end-session ends the platform session as well as the
// tokens, and accepts client_id + post_logout_redirect_uri without id_token_hint behind a confirmation page.

#include <doctest/doctest.h>

#include "oauth_flow.h"

using testing::location_query;
using testing::OAuthFlow;
using testing::Reply;
using testing::str_of;
using testing::TestEdge;

namespace {

Reply userinfo(TestEdge& edge, const std::string& access) {
  return edge.send("GET", "/oauth/userinfo", "", {{"Authorization", "Bearer " + access}});
}

bool clears_session_cookie(const Reply& r) {
  auto range = r.headers.equal_range("Set-Cookie");
  for (auto it = range.first; it != range.second; ++it)
    if (it->second.rfind("platform_session=;", 0) == 0 && it->second.find("Max-Age=0") != std::string::npos)
      return true;
  return false;
}

}  // namespace

TEST_CASE("end-session with id_token_hint ends the platform session: the next authorize asks for a sign-in") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.exchange_code(rp.code_for());
  auto out = edge.send(
      "GET",
      "/oauth/end-session?" + testing::form_encode({{"id_token_hint", str_of(t, "id_token")},
                                                    {"post_logout_redirect_uri", "https://rp.example/bye"},
                                                    {"state", "st"}}),
      "", {{"Cookie", rp.cookie}});
  REQUIRE(out.status == 302);
  CHECK(out.header("Location") == "https://rp.example/bye?state=st");
  CHECK(clears_session_cookie(out));
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 401);
  // The old cookie names no session any more: no silent code, the browser goes to sign in.
  auto again = rp.authorize({});
  REQUIRE(again.status == 302);
  CHECK(again.header("Location").rfind("/login?next=", 0) == 0);
  CHECK(edge.send("GET", "/account", "", {{"Cookie", rp.cookie}}).header("Location") ==
        "/login?next=/account");
}

TEST_CASE("end-session with a hint of another user leaves the signed-in user's session alone") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.exchange_code(rp.code_for());  // owner@acme.test
  OAuthFlow other(edge);
  other.client_id = rp.client_id;
  other.sign_in("owner@globex.test");
  auto out = edge.send("GET", "/oauth/end-session?id_token_hint=" + str_of(t, "id_token"), "",
                       {{"Cookie", other.cookie}});
  CHECK(out.status == 200);  // the signed-out page
  CHECK_FALSE(clears_session_cookie(out));
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 401);
  CHECK(edge.send("GET", "/account", "", {{"Cookie", other.cookie}}).status == 200);
}

TEST_CASE("end-session without id_token_hint: client_id and post_logout_redirect_uri ask for confirmation") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.exchange_code(rp.code_for());
  std::string query = testing::form_encode(
      {{"client_id", rp.client_id}, {"post_logout_redirect_uri", "https://rp.example/bye"}, {"state", "s1"}});
  auto page = edge.send("GET", "/oauth/end-session?" + query, "", {{"Cookie", rp.cookie}});
  REQUIRE(page.status == 200);
  CHECK(page.body.find("Recipe Box asks to sign you out.") != std::string::npos);
  CHECK(page.body.find("owner@acme.test") != std::string::npos);
  CHECK(page.body.find("action=\"/oauth/end-session\"") != std::string::npos);
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 200);  // nothing happens before the answer
  std::string csrf = testing::hidden_value(page.body, "csrf");
  REQUIRE_FALSE(csrf.empty());

  auto forged = edge.send("POST", "/oauth/end-session",
                          testing::form_encode({{"csrf", "forged"},
                                                {"client_id", rp.client_id},
                                                {"post_logout_redirect_uri", "https://rp.example/bye"}}),
                          {{"Cookie", rp.cookie}}, "application/x-www-form-urlencoded");
  CHECK(forged.status == 403);
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 200);

  auto confirmed = edge.send(
      "POST", "/oauth/end-session",
      testing::form_encode(
          {{"csrf", csrf},
           {"client_id", testing::hidden_value(page.body, "client_id")},
           {"post_logout_redirect_uri", testing::hidden_value(page.body, "post_logout_redirect_uri")},
           {"state", testing::hidden_value(page.body, "state")}}),
      {{"Cookie", rp.cookie}}, "application/x-www-form-urlencoded");
  REQUIRE(confirmed.status == 302);
  CHECK(confirmed.header("Location") == "https://rp.example/bye?state=s1");
  CHECK(clears_session_cookie(confirmed));
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 401);
  CHECK(rp.authorize({}).header("Location").rfind("/login?next=", 0) == 0);
}

TEST_CASE("the end-session confirmation page speaks Turkish when asked") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.sign_in();
  auto page = edge.send(
      "GET",
      "/oauth/end-session?" + testing::form_encode({{"client_id", rp.client_id}, {"ui_locales", "tr"}}), "",
      {{"Cookie", rp.cookie}});
  REQUIRE(page.status == 200);
  CHECK(page.body.find("<html lang=\"tr\"") != std::string::npos);
  CHECK(page.body.find("Recipe Box oturumunuzu kapatmak istiyor.") != std::string::npos);
  CHECK(page.body.find(">Oturumu kapat</button>") != std::string::npos);
  CHECK(testing::hidden_value(page.body, "ui_locales") == "tr");
}

TEST_CASE(
    "end-session without a hint and without a session redirects at once; unknown or missing client: 400") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto r = edge.get("/oauth/end-session?" +
                    testing::form_encode({{"client_id", rp.client_id},
                                          {"post_logout_redirect_uri", "https://rp.example/bye"},
                                          {"state", "x"}}));
  REQUIRE(r.status == 302);
  CHECK(r.header("Location") == "https://rp.example/bye?state=x");
  CHECK(edge.get("/oauth/end-session").status == 400);
  CHECK(edge.get("/oauth/end-session?client_id=cli_unknown").status == 400);
  auto evil = edge.get("/oauth/end-session?" +
                       testing::form_encode({{"client_id", rp.client_id},
                                             {"post_logout_redirect_uri", "https://evil.example/"}}));
  CHECK(evil.status == 400);
  CHECK(evil.header("Location").empty());
}

TEST_CASE(
    "a cross-site POST to end-session (no SameSite=Lax cookie) is sent back as a GET, which carries it") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.exchange_code(rp.code_for());
  auto posted = edge.send("POST", "/oauth/end-session",
                          testing::form_encode({{"id_token_hint", str_of(t, "id_token")}, {"state", "a b"}}),
                          {}, "application/x-www-form-urlencoded");
  REQUIRE(posted.status == 303);
  std::string loc = posted.header("Location");
  CHECK(loc.rfind("/oauth/end-session?", 0) == 0);
  CHECK(location_query(posted)["state"] == "a b");
  CHECK(location_query(posted)["id_token_hint"] == str_of(t, "id_token"));
  CHECK(userinfo(edge, str_of(t, "access_token")).status == 200);  // the GET does the work
}

TEST_CASE("codes issued before end-session or a consent revocation do not exchange") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto t = rp.exchange_code(rp.code_for());
  std::string pending = rp.code_for();  // consent remembered: issued silently
  auto out = edge.get("/oauth/end-session?id_token_hint=" + str_of(t, "id_token"));  // no cookie
  REQUIRE(out.status == 200);
  auto refused = rp.exchange_code(pending);
  CHECK(refused.status == 400);
  CHECK(str_of(refused, "error") == "invalid_grant");
  CHECK(str_of(refused, "error_description") == "the authorization was revoked after this code was issued");
  // A code issued after the end-session works.
  CHECK(rp.exchange_code(rp.code_for()).status == 200);

  std::string before_revocation = rp.code_for();
  auto apps = edge.send("GET", "/en/profile/connected-apps", "", {{"Cookie", rp.cookie}});
  auto revoked = edge.send(
      "POST", "/en/profile/connected-apps/revoke",
      testing::form_encode({{"csrf", testing::hidden_value(apps.body, "csrf")}, {"client_id", rp.client_id}}),
      {{"Cookie", rp.cookie}}, "application/x-www-form-urlencoded");
  REQUIRE(revoked.status == 303);
  auto late = rp.exchange_code(before_revocation);
  CHECK(str_of(late, "error") == "invalid_grant");
  CHECK(str_of(late, "error_description") == "the authorization was revoked after this code was issued");
  // Consent again: the new code works.
  CHECK(rp.exchange_code(rp.code_for()).status == 200);
}
