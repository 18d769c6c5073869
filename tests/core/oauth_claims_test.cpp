// Claims released by scope (core/oauth/claims.h).

#include <doctest/doctest.h>

#include "core/oauth/claims.h"

using namespace core::oauth;

TEST_CASE("userinfo claims follow the granted scopes") {
  UserProfile u{"usr_1", "Ayşe Yılmaz", "ayse", "", "ayse@example.com", true};
  CHECK(core::json::serialize(scope_claims(u, *core::parse_scope("openid"))) == R"({"sub":"usr_1"})");
  CHECK(core::json::serialize(scope_claims(u, *core::parse_scope("openid email"))) ==
        R"({"sub":"usr_1","email":"ayse@example.com","email_verified":true})");
  CHECK(core::json::serialize(scope_claims(u, *core::parse_scope("openid profile"))) ==
        R"({"sub":"usr_1","name":"Ayşe Yılmaz","preferred_username":"ayse"})");  // no picture: left out
}

TEST_CASE("id_token claims: iss, sub, aud, exp an hour after iat, auth_time, nonce only when sent") {
  UserProfile u{"usr_1", "A", "a", "https://img.example/a.png", "a@example.com", false};
  auto c = id_token_claims(u, *core::parse_scope("openid profile"),
                           {"https://auth.example", "cli_1", "n1", 1000, 2000});
  CHECK(
      core::json::serialize(c) ==
      R"({"iss":"https://auth.example","sub":"usr_1","aud":"cli_1","exp":5600,"iat":2000,"auth_time":1000,"nonce":"n1",)"
      R"("name":"A","preferred_username":"a","picture":"https://img.example/a.png"})");
  auto no_nonce =
      id_token_claims(u, *core::parse_scope("openid"), {"https://auth.example", "cli_1", "", 1000, 2000});
  CHECK_FALSE(no_nonce.contains("nonce"));
  CHECK_FALSE(no_nonce.contains("email"));
}
