#include "core/token.h"

#include <doctest/doctest.h>

#include "counting_random.h"

#include <string>

using namespace core;

namespace {

std::string token(TokenKind kind) {
  testing::CountingRandom random;
  return make_token(kind, random);
}

constexpr std::string_view kHex48 = "000102030405060708090a0b0c0d0e0f1011121314151617";
constexpr std::string_view kB64u43 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8";

}  // namespace

TEST_CASE("make_token: prefix and encoding of every kind") {
  CHECK(token(TokenKind::access_token) == "stk_" + std::string(kHex48));
  CHECK(token(TokenKind::env_vault_token) == "stk_env_" + std::string(kHex48));
  CHECK(token(TokenKind::auth_project_key) == "aps_" + std::string(kHex48));
  CHECK(token(TokenKind::oauth_access) == "oat_" + std::string(kB64u43));
  CHECK(token(TokenKind::oauth_refresh) == "ort_" + std::string(kB64u43));
  CHECK(token(TokenKind::oauth_code) == "oac_" + std::string(kB64u43));
  CHECK(token(TokenKind::session) == "ses_" + std::string(kB64u43));
  CHECK(token(TokenKind::csrf) == kB64u43);
  CHECK(token(TokenKind::access_token).size() == 4 + 48);
  CHECK(token(TokenKind::env_vault_token).size() == 8 + 48);
  CHECK(token(TokenKind::oauth_access).size() == 4 + 43);
  CHECK(token_prefix(TokenKind::env_vault_token) == "stk_env_");
  CHECK(token_prefix(TokenKind::csrf) == "");
}

TEST_CASE("make_token draws fresh bytes for each token") {
  testing::CountingRandom random;
  const std::string first = make_token(TokenKind::access_token, random);
  const std::string second = make_token(TokenKind::access_token, random);
  CHECK(first != second);
  CHECK(second == "stk_18191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f");
}

TEST_CASE("every made token has its own shape") {
  for (TokenKind kind : {TokenKind::access_token, TokenKind::env_vault_token, TokenKind::auth_project_key,
                         TokenKind::oauth_access, TokenKind::oauth_refresh, TokenKind::oauth_code,
                         TokenKind::session, TokenKind::csrf}) {
    CHECK(has_token_shape(kind, token(kind)));
  }
}

TEST_CASE("has_token_shape refuses near misses") {
  const std::string stk = "stk_" + std::string(kHex48);
  const std::string env = "stk_env_" + std::string(kHex48);
  const std::string oat = "oat_" + std::string(kB64u43);
  CHECK_FALSE(has_token_shape(TokenKind::access_token, env));  // an env vault token is not an access token
  CHECK_FALSE(has_token_shape(TokenKind::env_vault_token, stk));
  CHECK_FALSE(has_token_shape(TokenKind::auth_project_key, stk));
  CHECK_FALSE(has_token_shape(TokenKind::access_token, "stk_env_" + std::string(kHex48.substr(0, 44))));
  CHECK_FALSE(has_token_shape(TokenKind::access_token, stk.substr(0, stk.size() - 1)));
  CHECK_FALSE(has_token_shape(TokenKind::access_token, stk + "0"));
  CHECK_FALSE(has_token_shape(TokenKind::access_token, "STK_" + std::string(kHex48)));
  CHECK_FALSE(
      has_token_shape(TokenKind::access_token, "stk_" + std::string(47, '0') + "A"));  // upper-case hex
  CHECK_FALSE(has_token_shape(TokenKind::access_token, "stk_" + std::string(47, '0') + "g"));
  CHECK_FALSE(has_token_shape(TokenKind::access_token, ""));
  CHECK_FALSE(has_token_shape(TokenKind::oauth_refresh, oat));
  CHECK_FALSE(
      has_token_shape(TokenKind::oauth_access, "oat_" + std::string(42, 'A') + "+"));  // standard base64
  CHECK_FALSE(has_token_shape(TokenKind::oauth_access, "oat_" + std::string(42, 'A') + "="));
  CHECK_FALSE(has_token_shape(TokenKind::oauth_access, "oat_" + std::string(44, 'A')));
  CHECK(has_token_shape(TokenKind::oauth_access, "oat_" + std::string(41, 'z') + "-_"));
  CHECK_FALSE(has_token_shape(TokenKind::csrf, oat));
  CHECK_FALSE(has_token_shape(TokenKind::csrf, std::string(42, 'a') + " "));
}

TEST_CASE("token_display_prefix is the first 12 characters") {
  CHECK(token_display_prefix("stk_" + std::string(kHex48)) == "stk_00010203");
  CHECK(token_display_prefix("stk_env_" + std::string(kHex48)) == "stk_env_0001");
  CHECK(token_display_prefix("stk_" + std::string(kHex48)).size() == 12);
  CHECK(token_display_prefix("short") == "short");
}
