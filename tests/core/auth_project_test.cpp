// core/auth: project settings and password policy, refresh rotation with a reuse interval, and access
// tokens. The same cases run natively and in wasm.

#include <doctest/doctest.h>

#include "core/auth/access_token.h"
#include "core/auth/project_settings.h"
#include "core/auth/refresh_rotation.h"
#include "core/jwt.h"

using namespace core::auth;
namespace json = core::json;

namespace {

json::object parse(std::string_view text) {
  auto o = core::parse_json_object(text);
  REQUIRE(o.ok());
  return *o;
}

}  // namespace

TEST_CASE("auth project settings: defaults, bounds, nested objects, nothing changed on error") {
  ProjectSettings s;
  REQUIRE(apply_project_settings(s, parse(R"({"name":" Shop ","slug":"shop"})"), true).ok());
  CHECK(s.name == "Shop");
  CHECK(s.access_token_ttl_s == 900);
  CHECK(s.refresh_token_ttl_s == 30 * 86400);
  CHECK(s.refresh_reuse_interval_s == 10);
  CHECK(s.sign_in_methods.password);
  CHECK(!s.sign_in_methods.passkey);

  auto missing = apply_project_settings(s, parse(R"({"name":"x"})"), true);
  CHECK(missing.error().code == "missing_field");
  CHECK(apply_project_settings(s, parse(R"({"accessTokenTtlSeconds":59})"), false).error().message ==
        "'accessTokenTtlSeconds' must be between 60 and 86400");
  CHECK(apply_project_settings(s, parse(R"({"refreshReuseIntervalSeconds":121})"), false).error().code ==
        "invalid_setting");
  CHECK(apply_project_settings(s, parse(R"({"refreshReuseIntervalSeconds":0})"), false).ok());
  CHECK(s.refresh_reuse_interval_s == 0);
  CHECK(apply_project_settings(s, parse(R"({"passwordPolicy":{"minLength":7}})"), false).error().code ==
        "invalid_setting");
  CHECK(apply_project_settings(s, parse(R"({"signInMethods":{"sms":true}})"), false).error().message ==
        "'signInMethods' has no member 'sms'");
  CHECK(apply_project_settings(s, parse(R"({"signInMethods":"all"})"), false).error().code ==
        "invalid_field");
  // Passkeys need their relying party.
  CHECK(apply_project_settings(s, parse(R"({"signInMethods":{"passkey":true}})"), false).error().message ==
        "passkey sign-in needs 'passkeys' (rpId and origins)");
  CHECK(apply_project_settings(
            s, parse(R"({"passkeys":{"rpId":"example.com","origins":["https://example.com/login"]}})"), false)
            .error()
            .message ==
        "passkey origin 'https://example.com/login' must be scheme://host[:port] without a path");
  REQUIRE(
      apply_project_settings(s,
                             parse(R"({"signInMethods":{"passkey":true},)"
                                   R"("passkeys":{"rpId":"Example.com","origins":["https://example.com"]}})"),
                             false)
          .ok());
  CHECK(s.passkeys->rp_id == "example.com");
  CHECK(s.passkeys->rp_name == "Shop");
  // A failed apply leaves everything as it was, even members that came before the bad one.
  ProjectSettings before = s;
  CHECK(!apply_project_settings(s, parse(R"({"name":"Renamed","accessTokenTtlSeconds":1})"), false).ok());
  CHECK(s.name == before.name);
  CHECK(
      apply_project_settings(s, parse(R"({"mail":{"domainId":"dom_1","from":"No-Reply@Shop.test"}})"), false)
          .ok());
  CHECK(s.mail->from == "no-reply@shop.test");
  CHECK(apply_project_settings(s, parse(R"({"mail":null})"), false).ok());
  CHECK(!s.mail);
}

TEST_CASE("auth project settings round-trip through their JSON") {
  ProjectSettings s;
  REQUIRE(
      apply_project_settings(s,
                             parse(R"({"name":"A","slug":"ab","allowedRedirectUrls":["https://a.test/cb"],)"
                                   R"("passwordPolicy":{"minLength":12,"requireSymbol":true},)"
                                   R"("signInMethods":{"totp":true},"requireEmailVerification":true})"),
                             true)
          .ok());
  ProjectSettings back = project_settings_from_json(to_json(s));
  CHECK(core::to_json(to_json(back)) == core::to_json(to_json(s)));
  CHECK(is_allowed_redirect(back, "https://a.test/cb"));
  CHECK(!is_allowed_redirect(back, "https://a.test/cb/"));
  CHECK(!is_allowed_redirect(back, "https://a.test/cb?x=1"));
}

TEST_CASE("password policy") {
  PasswordPolicy p;
  CHECK(check_password(p, "12345678").ok());
  CHECK(check_password(p, "1234567").error().message == "the password needs at least 8 characters");
  // Characters, not bytes: 8 Turkish letters are 8 characters.
  CHECK(check_password(p, "çğıöşüÇĞ").ok());
  p.min_length = 10;
  p.require_letter = p.require_digit = p.require_symbol = true;
  CHECK(check_password(p, "short").error().message ==
        "the password needs at least 10 characters, a digit and a symbol");
  CHECK(check_password(p, "longer password 1").ok());
  CHECK(check_password(p, std::string(1025, 'a')).error().code == "invalid_password");
}

TEST_CASE("refresh rotation with a reuse interval") {
  RefreshTokenState fresh{.expires_at_ms = 1000};
  CHECK(decide_refresh(nullptr, 0, 10'000) == RefreshOutcome::refused);
  CHECK(decide_refresh(&fresh, 999, 10'000) == RefreshOutcome::rotate);
  CHECK(decide_refresh(&fresh, 1000, 10'000) == RefreshOutcome::refused);  // expired
  RefreshTokenState ended = fresh;
  ended.session_live = false;
  CHECK(decide_refresh(&ended, 0, 10'000) == RefreshOutcome::refused);

  RefreshTokenState rotated{.expires_at_ms = 100'000, .rotated = true, .rotated_at_ms = 5'000};
  CHECK(decide_refresh(&rotated, 5'000, 10'000) == RefreshOutcome::reuse_successor);
  CHECK(decide_refresh(&rotated, 14'999, 10'000) == RefreshOutcome::reuse_successor);
  CHECK(decide_refresh(&rotated, 15'000, 10'000) == RefreshOutcome::replay);
  CHECK(decide_refresh(&rotated, 5'000, 0) == RefreshOutcome::replay);  // strict
  rotated.successor_used = true;
  CHECK(decide_refresh(&rotated, 5'001, 10'000) == RefreshOutcome::replay);
  // A rotated token replayed after its own expiry still ends its family.
  rotated.successor_used = false;
  CHECK(decide_refresh(&rotated, 200'000, 10'000) == RefreshOutcome::replay);
}

TEST_CASE("access token claims and their checks") {
  AccessTokenFacts f;
  f.issuer = project_issuer("https://auth.example.com/", "shop");
  CHECK(f.issuer == "https://auth.example.com/api/v1/auth/shop");
  f.project_id = "apj_1";
  f.user_id = "apu_1";
  f.session_id = "eus_1";
  f.email = "a@b.test";
  f.amr = "pwd";
  f.now_s = 1'800'000'000;
  json::object claims = access_token_claims(f);
  CHECK(core::to_json(claims) ==
        R"({"iss":"https://auth.example.com/api/v1/auth/shop","sub":"apu_1","aud":"apj_1","exp":1800000900,)"
        R"("iat":1800000000,"sid":"eus_1","email":"a@b.test","email_verified":false,"amr":["pwd"]})");
  // Without an RSA key here, the claim checks run through an HS256-signed token refused by its alg: the
  // verifier accepts RS256 only.
  const std::string hs = core::sign_hs256(claims, std::string(32, 'k'));
  auto refused = verify_access_token(hs, {}, f.issuer, "apj_1", f.now_s);
  CHECK(refused.error().code == "unsupported_alg");
}
