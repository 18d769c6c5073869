// OpenID Connect prompt handling over real HTTP: offline_access only with prompt=consent (Core §11), and
// prompt=login's round trip kept server-side (no endless sign-in loop from a crafted link).

#include <doctest/doctest.h>

#include "core/jwt.h"
#include "oauth_flow.h"

using testing::location_query;
using testing::OAuthFlow;
using testing::Reply;
using testing::str_of;
using testing::TestEdge;

namespace {

// The `next` target of a /login redirect, the Location's last parameter (cpp-httplib's client has already
// decoded %XX in Location once, so what follows `next=` is the authorize URL as the browser will send it).
std::string next_of(const Reply& r) {
  std::string loc = r.header("Location");
  auto at = loc.find("next=");
  return at == std::string::npos ? std::string() : loc.substr(at + 5);
}

}  // namespace

TEST_CASE("offline_access without prompt=consent is ignored: no refresh token, the scope says so") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  auto silent = rp.exchange_code(rp.code_for({{"scope", "openid offline_access"}}));
  REQUIRE(silent.status == 200);
  CHECK(str_of(silent, "scope") == "openid");
  CHECK_FALSE(silent.json.as_object().contains("refresh_token"));

  auto consented = rp.exchange_code(rp.code_for({{"scope", "openid offline_access"}, {"prompt", "consent"}}));
  REQUIRE(consented.status == 200);
  CHECK(str_of(consented, "scope") == "offline_access openid");
  CHECK(str_of(consented, "refresh_token").rfind("ort_", 0) == 0);

  // A remembered consent that holds offline_access does not grant it silently either.
  auto again = rp.authorize({{"scope", "openid offline_access"}});
  REQUIRE(again.status == 302);
  auto later = rp.exchange_code(location_query(again)["code"]);
  CHECK(str_of(later, "scope") == "openid");
  CHECK_FALSE(later.json.as_object().contains("refresh_token"));
}

TEST_CASE("the consent page lists offline access only when prompt=consent asked for it") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.sign_in();
  auto without = rp.authorize({{"scope", "openid profile offline_access"}});
  REQUIRE(without.status == 200);
  CHECK(without.body.find("Stay connected when you are away") == std::string::npos);
  auto with = rp.authorize({{"scope", "openid profile offline_access"}, {"prompt", "consent"}});
  REQUIRE(with.status == 200);
  CHECK(with.body.find("Stay connected when you are away") != std::string::npos);
}

TEST_CASE("a time planted in an authorize link cannot force an endless sign-in loop") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.code_for();  // signed in, consent remembered
  // The former client-side parameter is now just an unknown one: ignored.
  auto planted = rp.authorize({{"login_after", "99999999999999"}});
  REQUIRE(planted.status == 302);
  CHECK(location_query(planted).count("code") == 1);
  // An unknown login_request is a fresh prompt=login: one sign-in, then the code.
  auto forged = rp.authorize({{"login_request", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}});
  REQUIRE(forged.status == 302);
  CHECK(forged.header("Location").rfind("/login?force=1&next=", 0) == 0);
  std::string next = next_of(forged);
  CHECK(next.find("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") == std::string::npos);
  rp.sign_in();
  auto back = edge.send("GET", next, "", {{"Cookie", rp.cookie}});
  REQUIRE(back.status == 302);
  CHECK(location_query(back).count("code") == 1);
}

TEST_CASE("prompt=login: the old session is sent to sign in until a new sign-in, then the code comes") {
  TestEdge edge;
  OAuthFlow rp(edge);
  rp.register_client();
  rp.code_for();
  edge.clock.advance_ms(60'000);  // the session is a minute old
  auto forced = rp.authorize({{"prompt", "login"}, {"state", "p"}});
  REQUIRE(forced.status == 302);
  std::string next = next_of(forced);
  CHECK(next.find("login_request=") != std::string::npos);
  CHECK(next.find("prompt=") == std::string::npos);
  // Coming back with the old session: sign in again.
  auto stale = edge.send("GET", next, "", {{"Cookie", rp.cookie}});
  REQUIRE(stale.status == 302);
  CHECK(stale.header("Location").rfind("/login?force=1&next=", 0) == 0);
  rp.sign_in();
  auto fresh = edge.send("GET", next, "", {{"Cookie", rp.cookie}});
  REQUIRE(fresh.status == 302);
  auto q = location_query(fresh);
  CHECK(q["state"] == "p");
  auto t = rp.exchange_code(q["code"]);
  REQUIRE(t.status == 200);
  auto claims = core::decode_jwt(str_of(t, "id_token"));
  REQUIRE(claims.ok());
  CHECK(claims->claims.at("auth_time").as_int64() == (TestEdge::kStart + 60'000) / 1000);
}
