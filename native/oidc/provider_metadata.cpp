#include "native/oidc/provider_metadata.h"

#include <algorithm>
#include <optional>

#include "native/oidc/untrusted_text.h"

namespace native::oidc {
namespace json = core::json;
namespace {

core::Error bad_metadata(std::string message) {
  return core::make_error("oidc_bad_metadata", "discovery document: " + std::move(message));
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// A required endpoint URL of the document, checked as the client will use it.
core::Result<std::string> endpoint(const json::object& doc, std::string_view name) {
  auto value = core::require_string(doc, name);
  if (!value) return bad_metadata(value.error().message);
  if (auto checked = check_fetch_url(*value); !checked)
    return core::make_error(checked.error().code, std::string(name) + ": " + checked.error().message);
  return std::move(*value);
}

core::Result<std::string> optional_endpoint(const json::object& doc, std::string_view name) {
  auto present = doc.if_contains(name);
  if (present == nullptr || present->is_null()) return std::string();
  return endpoint(doc, name);
}

// A string-array member that, when present, must hold `required`. nullopt when absent.
core::Result<std::optional<std::vector<std::string>>> supported(const json::object& doc,
                                                                std::string_view name,
                                                                std::string_view required) {
  auto list = core::optional_string_array(doc, name);
  if (!list) return bad_metadata(list.error().message);
  if (*list && !required.empty() && !contains(**list, required))
    return core::make_error("oidc_unsupported_provider",
                            std::string(name) + " does not include " + std::string(required));
  return std::move(*list);
}

}  // namespace

std::string discovery_url(std::string_view issuer) {
  if (!issuer.empty() && issuer.back() == '/') issuer.remove_suffix(1);
  return std::string(issuer) + "/.well-known/openid-configuration";
}

core::Result<ProviderMetadata> parse_provider_metadata(std::string_view body, std::string_view issuer) {
  auto parsed = core::parse_json_object(body);
  if (!parsed) return bad_metadata("not a JSON object");
  const json::object& doc = *parsed;

  ProviderMetadata m;
  auto* named = doc.if_contains("issuer");
  if (named == nullptr || !named->is_string() || named->get_string() != issuer) {
    const std::string said = named != nullptr && named->is_string()
                                 ? "\"" + untrusted_excerpt(named->get_string()) + "\""
                                 : std::string("no issuer");
    return core::make_error("oidc_issuer_mismatch", "the discovery document names " + said +
                                                        ", the configured issuer is \"" +
                                                        std::string(issuer) + "\"");
  }
  m.issuer = std::string(issuer);

  auto authorization = endpoint(doc, "authorization_endpoint");
  if (!authorization) return authorization.error();
  auto token = endpoint(doc, "token_endpoint");
  if (!token) return token.error();
  auto jwks = endpoint(doc, "jwks_uri");
  if (!jwks) return jwks.error();
  auto userinfo = optional_endpoint(doc, "userinfo_endpoint");
  if (!userinfo) return userinfo.error();
  auto end_session = optional_endpoint(doc, "end_session_endpoint");
  if (!end_session) return end_session.error();
  m.authorization_endpoint = std::move(*authorization);
  m.token_endpoint = std::move(*token);
  m.jwks_uri = std::move(*jwks);
  m.userinfo_endpoint = std::move(*userinfo);
  m.end_session_endpoint = std::move(*end_session);

  // The client sends response_type=code, verifies RS256 only, and always sends an S256 challenge.
  CORE_TRY(supported(doc, "response_types_supported", "code"));
  CORE_TRY(supported(doc, "id_token_signing_alg_values_supported", "RS256"));
  auto pkce = supported(doc, "code_challenge_methods_supported", "S256");
  if (!pkce) return pkce.error();
  m.pkce_s256_advertised = pkce->has_value();

  auto auth_methods = supported(doc, "token_endpoint_auth_methods_supported", "");
  if (!auth_methods) return auth_methods.error();
  if (auto& methods = *auth_methods; methods && !contains(*methods, "client_secret_basic")) {
    if (!contains(*methods, "client_secret_post"))
      return core::make_error("oidc_unsupported_provider",
                              "token_endpoint_auth_methods_supported has neither client_secret_basic nor "
                              "client_secret_post");
    m.token_auth = TokenAuthMethod::client_secret_post;
  }
  m.document = std::move(*parsed);
  return m;
}

core::Result<ProviderMetadata> discover(std::string_view issuer, const FetchOptions& options) {
  CORE_TRY(check_fetch_url(issuer));
  if (issuer.find_first_of("?#") != std::string_view::npos)
    return core::make_error("oidc_invalid_url", "the issuer must not have a query or fragment");
  const std::string url = discovery_url(issuer);
  auto response = http_get(url, {}, options);
  if (!response) return response.error();
  if (response->status != 200)
    return core::make_error("oidc_bad_response",
                            url + " answered status " + std::to_string(response->status));
  return parse_provider_metadata(response->body, issuer);
}

core::Result<std::vector<core::RsaPublicKey>> parse_provider_jwks(std::string_view body) {
  auto parsed = core::parse_json_object(body);
  if (!parsed) return core::make_error("oidc_bad_jwks", "the JWK Set is not a JSON object");
  auto keys = core::parse_jwks(*parsed);
  if (!keys) return core::make_error("oidc_bad_jwks", "JWK Set: " + keys.error().message);
  if (keys->empty()) return core::make_error("oidc_bad_jwks", "the JWK Set holds no RS256 signing key");
  return keys;
}

core::Result<std::vector<core::RsaPublicKey>> fetch_jwks(std::string_view jwks_uri,
                                                         const FetchOptions& options) {
  auto response = http_get(jwks_uri, {}, options);
  if (!response) return response.error();
  if (response->status != 200)
    return core::make_error("oidc_bad_response",
                            std::string(jwks_uri) + " answered status " + std::to_string(response->status));
  return parse_provider_jwks(response->body);
}

}  // namespace native::oidc
