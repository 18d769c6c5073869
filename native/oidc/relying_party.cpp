#include "native/oidc/relying_party.h"

#include <algorithm>
#include <array>

#include "core/ascii.h"
#include "core/bytes.h"
#include "core/pkce.h"
#include "core/scope.h"
#include "native/oidc/form_encoding.h"
#include "native/oidc/untrusted_text.h"

namespace native::oidc {
namespace json = core::json;
namespace {

// 256 bits, base64url: state, nonce and code verifier (RFC 7636 §4.1 asks for 32 octets; OpenID Connect
// Core §15.5.2 and RFC 6749 §10.10 for values an attacker cannot guess).
std::string random_token(core::RandomSource& random) {
  std::array<std::uint8_t, 32> bytes{};
  random.fill(bytes);
  return core::base64url_encode(bytes);
}

core::Result<std::string> scope_string(const std::vector<std::string>& scopes) {
  std::vector<std::string> ordered = {"openid"};
  for (const auto& s : scopes) {
    // One token each: a space inside would smuggle in a second scope.
    if (s.empty() || s.find(' ') != std::string::npos || !core::parse_scope(s))
      return core::make_error("oidc_invalid_request", "a scope is not a valid scope token");
    if (std::find(ordered.begin(), ordered.end(), s) == ordered.end()) ordered.push_back(s);
  }
  std::string joined;
  for (const auto& s : ordered) joined += (joined.empty() ? "" : " ") + s;
  return joined;
}

std::string member(const json::object& o, std::string_view name) {
  auto* v = o.if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

// RFC 6749 §5.2: {"error": ..., "error_description": ...}, when the body is that.
std::string refusal(const HttpResponse& response) {
  std::string message = "the token endpoint answered " + std::to_string(response.status);
  auto body = core::parse_json_object(response.body);
  if (!body) return message;
  if (std::string error = member(*body, "error"); !error.empty())
    message += " " + untrusted_excerpt(error, 64);
  if (std::string description = member(*body, "error_description"); !description.empty())
    message += ": " + untrusted_excerpt(description);
  return message;
}

}  // namespace

core::Result<AuthorizationRequest> authorization_request(const ProviderMetadata& provider,
                                                         std::string_view client_id,
                                                         std::string_view redirect_uri,
                                                         const std::vector<std::string>& scopes,
                                                         core::RandomSource& random) {
  if (client_id.empty()) return core::make_error("oidc_invalid_request", "client_id is empty");
  if (redirect_uri.empty()) return core::make_error("oidc_invalid_request", "redirect_uri is empty");
  auto scope = scope_string(scopes);
  if (!scope) return scope.error();

  AuthorizationRequest request;
  request.state = random_token(random);
  request.nonce = random_token(random);
  request.code_verifier = random_token(random);
  const std::string query = form_url_encode(FormFields{
      {"response_type", "code"},
      {"client_id", std::string(client_id)},
      {"redirect_uri", std::string(redirect_uri)},
      {"scope", *scope},
      {"state", request.state},
      {"nonce", request.nonce},
      {"code_challenge", core::pkce_s256_challenge(request.code_verifier)},
      {"code_challenge_method", "S256"},
  });
  request.url = provider.authorization_endpoint;
  if (request.url.find('?') == std::string::npos) {
    request.url += '?';
  } else if (request.url.back() != '?' && request.url.back() != '&') {
    request.url += '&';
  }
  request.url += query;
  return request;
}

core::Result<TokenResponse> exchange_code(const ProviderMetadata& provider, std::string_view client_id,
                                          std::string_view client_secret, std::string_view redirect_uri,
                                          std::string_view code, std::string_view code_verifier,
                                          const FetchOptions& options) {
  FormFields form = {{"grant_type", "authorization_code"},
                     {"code", std::string(code)},
                     {"redirect_uri", std::string(redirect_uri)}};
  if (!code_verifier.empty()) form.emplace_back("code_verifier", std::string(code_verifier));
  std::string authorization;
  if (provider.token_auth == TokenAuthMethod::client_secret_basic) {
    const std::string credentials = form_url_encode(client_id) + ":" + form_url_encode(client_secret);
    authorization = "Basic " + core::base64_encode(core::as_bytes(credentials));
  } else {
    form.emplace_back("client_id", std::string(client_id));
    form.emplace_back("client_secret", std::string(client_secret));
  }
  auto response = http_post_form(provider.token_endpoint, form_url_encode(form), authorization, options);
  if (!response) return response.error();
  if (response->status != 200) return core::make_error("oidc_token_refused", refusal(*response));

  auto body = core::parse_json_object(response->body);
  if (!body) return core::make_error("oidc_bad_response", "the token response is not a JSON object");
  TokenResponse tokens;
  tokens.access_token = member(*body, "access_token");
  tokens.token_type = member(*body, "token_type");
  tokens.id_token = member(*body, "id_token");
  tokens.refresh_token = member(*body, "refresh_token");
  tokens.scope = member(*body, "scope");
  if (tokens.access_token.empty())
    return core::make_error("oidc_bad_response", "the token response has no access_token");
  if (!core::ascii_iequals(tokens.token_type, "Bearer"))
    return core::make_error("oidc_bad_response", "the token response's token_type is not Bearer");
  if (tokens.id_token.empty())
    return core::make_error("oidc_bad_response", "the token response has no id_token");
  if (auto* expires = body->if_contains("expires_in"); expires != nullptr && expires->is_int64())
    tokens.expires_in = expires->get_int64();
  return tokens;
}

core::Result<json::object> userinfo(const ProviderMetadata& provider, std::string_view access_token,
                                    std::string_view expected_sub, const FetchOptions& options) {
  if (provider.userinfo_endpoint.empty())
    return core::make_error("oidc_no_userinfo", "the provider publishes no userinfo_endpoint");
  auto response = http_get(provider.userinfo_endpoint, "Bearer " + std::string(access_token), options);
  if (!response) return response.error();
  if (response->status != 200)
    return core::make_error("oidc_userinfo_refused",
                            "the userinfo endpoint answered " + std::to_string(response->status));
  auto claims = core::parse_json_object(response->body);
  if (!claims) return core::make_error("oidc_bad_response", "the userinfo response is not a JSON object");
  if (member(*claims, "sub") != expected_sub || expected_sub.empty())
    return core::make_error("oidc_sub_mismatch", "the userinfo response is about another user");
  return std::move(*claims);
}

}  // namespace native::oidc
