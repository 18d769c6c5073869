// The rules of GET /oauth/authorize, without HTTP (core/oauth/authorize_request.h).

#include <doctest/doctest.h>

#include "core/oauth/authorize_request.h"

using namespace core::oauth;

namespace {

ClientPolicy confidential() {
  ClientPolicy p;
  p.redirect_uris = {"https://rp.example/cb", "http://localhost:3000/cb"};
  p.allowed_scopes = *core::parse_scope("openid profile email");
  return p;
}

std::multimap<std::string, std::string> query(
    std::initializer_list<std::pair<const std::string, std::string>> extra) {
  std::multimap<std::string, std::string> q{{"response_type", "code"},
                                            {"client_id", "cli_x"},
                                            {"redirect_uri", "https://rp.example/cb"},
                                            {"scope", "openid profile"}};
  for (auto& [k, v] : extra) {
    q.erase(k);
    if (v != "<absent>") q.emplace(k, v);
  }
  return q;
}

AuthorizeError error_of(const std::variant<AuthorizeRequest, AuthorizeError>& v) {
  REQUIRE(std::holds_alternative<AuthorizeError>(v));
  return std::get<AuthorizeError>(v);
}

}  // namespace

TEST_CASE("a valid request yields what it asks for") {
  auto v = validate_authorize(query({{"state", "s"}, {"nonce", "n"}, {"prompt", "consent"}}), confidential());
  REQUIRE(std::holds_alternative<AuthorizeRequest>(v));
  auto& r = std::get<AuthorizeRequest>(v);
  CHECK(r.client_id == "cli_x");
  CHECK(r.redirect_uri == "https://rp.example/cb");
  CHECK(r.scopes.to_string() == "openid profile");
  CHECK(r.state == "s");
  CHECK(r.nonce == "n");
  CHECK(r.prompt == Prompt::consent);
  CHECK(r.code_challenge.empty());
}

TEST_CASE("unknown clients and unregistered redirect URIs are page errors, never redirects") {
  CHECK(error_of(validate_authorize(query({}), std::nullopt)).page);
  CHECK(error_of(validate_authorize(query({{"client_id", "<absent>"}}), confidential())).page);
  auto missing = error_of(validate_authorize(query({{"redirect_uri", "<absent>"}}), confidential()));
  CHECK(missing.page);
  CHECK(missing.description == "redirect_uri is required");
  for (const char* uri : {"https://rp.example/cb/", "https://rp.example/CB", "https://rp.example/cb?x=1",
                          "https://evil.example/cb", "http://localhost:3001/cb"}) {
    auto e = error_of(validate_authorize(query({{"redirect_uri", uri}}), confidential()));
    CHECK_MESSAGE(e.page, uri);
    CHECK(e.description == "redirect_uri is not registered for this client");
  }
  std::multimap<std::string, std::string> twice = query({});
  twice.emplace("redirect_uri", "https://rp.example/cb");
  CHECK(error_of(validate_authorize(twice, confidential())).page);
}

TEST_CASE("other errors redirect back with the state") {
  auto e = error_of(validate_authorize(query({{"response_type", "token"}, {"state", "st"}}), confidential()));
  CHECK_FALSE(e.page);
  CHECK(e.error == "unsupported_response_type");
  CHECK(e.redirect_uri == "https://rp.example/cb");
  CHECK(e.state == "st");
  CHECK(error_of(validate_authorize(query({{"response_type", "<absent>"}}), confidential())).error ==
        "invalid_request");
  std::multimap<std::string, std::string> twice = query({});
  twice.emplace("scope", "openid");
  CHECK(error_of(validate_authorize(twice, confidential())).error == "invalid_request");
}

TEST_CASE("scopes: required, well-formed, with openid, within the allow-list") {
  CHECK(error_of(validate_authorize(query({{"scope", "<absent>"}}), confidential())).error ==
        "invalid_scope");
  CHECK(error_of(validate_authorize(query({{"scope", "profile"}}), confidential())).description ==
        "scope must include openid");
  auto outside = error_of(validate_authorize(query({{"scope", "openid offline_access"}}), confidential()));
  CHECK(outside.error == "invalid_scope");
  CHECK(outside.description == "scope 'offline_access' is not allowed for this client");
  CHECK(error_of(validate_authorize(query({{"scope", "openid\tprofile"}}), confidential())).error ==
        "invalid_scope");
}

TEST_CASE("PKCE: S256 only, a well-formed challenge, required for public clients") {
  const std::string challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
  auto ok = validate_authorize(query({{"code_challenge", challenge}, {"code_challenge_method", "S256"}}),
                               confidential());
  REQUIRE(std::holds_alternative<AuthorizeRequest>(ok));
  CHECK(std::get<AuthorizeRequest>(ok).code_challenge == challenge);
  CHECK(
      error_of(validate_authorize(query({{"code_challenge", challenge}, {"code_challenge_method", "plain"}}),
                                  confidential()))
          .description == "code_challenge_method must be S256");
  CHECK(error_of(validate_authorize(query({{"code_challenge", challenge}}), confidential())).description ==
        "code_challenge_method must be S256");
  CHECK(
      error_of(validate_authorize(query({{"code_challenge_method", "S256"}}), confidential())).description ==
      "code_challenge_method without code_challenge");
  CHECK(error_of(validate_authorize(query({{"code_challenge", "short"}, {"code_challenge_method", "S256"}}),
                                    confidential()))
            .description == "code_challenge is malformed");
  ClientPolicy spa = confidential();
  spa.is_public = true;
  CHECK(error_of(validate_authorize(query({}), spa)).description ==
        "PKCE (code_challenge with S256) is required for public clients");
  CHECK(std::holds_alternative<AuthorizeRequest>(
      validate_authorize(query({{"code_challenge", challenge}, {"code_challenge_method", "S256"}}), spa)));
}

TEST_CASE("prompt is none, login or consent") {
  CHECK(std::get<AuthorizeRequest>(validate_authorize(query({{"prompt", "none"}}), confidential())).prompt ==
        Prompt::none);
  CHECK(std::get<AuthorizeRequest>(validate_authorize(query({{"prompt", "login"}}), confidential())).prompt ==
        Prompt::login);
  CHECK(std::get<AuthorizeRequest>(validate_authorize(query({}), confidential())).prompt ==
        Prompt::none_given);
  CHECK(error_of(validate_authorize(query({{"prompt", "select_account"}}), confidential())).error ==
        "invalid_request");
}

TEST_CASE("any parameter given twice redirects with invalid_request, also those the rules do not read") {
  for (const char* name : {"ui_locales", "login_request", "max_age", "state"}) {
    auto twice = query({{name, "a"}});
    twice.emplace(name, "b");
    auto e = error_of(validate_authorize(twice, confidential()));
    CHECK_MESSAGE(!e.page, name);
    CHECK(e.error == "invalid_request");
    CHECK(e.description == "a parameter was given more than once");
  }
}

TEST_CASE("offline_access is kept only with prompt=consent (OpenID Connect Core §11), else ignored") {
  ClientPolicy p = confidential();
  p.allowed_scopes = *core::parse_scope("openid profile offline_access");
  auto scopes_for = [&](const char* prompt) {
    auto v = validate_authorize(query({{"scope", "openid offline_access"}, {"prompt", prompt}}), p);
    REQUIRE(std::holds_alternative<AuthorizeRequest>(v));
    return std::get<AuthorizeRequest>(v).scopes.to_string();
  };
  CHECK(scopes_for("consent") == "offline_access openid");
  CHECK(scopes_for("<absent>") == "openid");
  CHECK(scopes_for("none") == "openid");
  CHECK(scopes_for("login") == "openid");
}
