#include "core/oauth/authorize_request.h"

#include <algorithm>

#include "core/oauth/parameters.h"
#include "core/pkce.h"

namespace core::oauth {
namespace {

// A parameter sent more than once is an error (RFC 6749 §3.1): nullopt for missing, "" sentinel handled by
// caller through `repeated`.
std::optional<std::string> single(const std::multimap<std::string, std::string>& q, const std::string& name,
                                  bool& repeated) {
  auto [lo, hi] = q.equal_range(name);
  if (lo == hi) return std::nullopt;
  if (std::next(lo) != hi) repeated = true;
  return lo->second;
}

}  // namespace

std::variant<AuthorizeRequest, AuthorizeError> validate_authorize(
    const std::multimap<std::string, std::string>& query, const std::optional<ClientPolicy>& client) {
  bool repeated = false;
  auto client_id = single(query, "client_id", repeated);
  auto redirect_uri = single(query, "redirect_uri", repeated);
  if (!client_id || client_id->empty() || !client)
    return AuthorizeError{true, "invalid_client", "unknown client_id", "", ""};
  if (!redirect_uri || redirect_uri->empty())
    return AuthorizeError{true, "invalid_request", "redirect_uri is required", "", ""};
  if (std::find(client->redirect_uris.begin(), client->redirect_uris.end(), *redirect_uri) ==
      client->redirect_uris.end())
    return AuthorizeError{true, "invalid_request", "redirect_uri is not registered for this client", "", ""};
  if (repeated)
    return AuthorizeError{true, "invalid_request", "client_id or redirect_uri given twice", "", ""};

  AuthorizeRequest req;
  req.client_id = *client_id;
  req.redirect_uri = *redirect_uri;
  req.state = single(query, "state", repeated).value_or("");
  auto fail = [&](std::string error,
                  std::string description) -> std::variant<AuthorizeRequest, AuthorizeError> {
    return AuthorizeError{false, std::move(error), std::move(description), req.redirect_uri, req.state};
  };

  auto response_type = single(query, "response_type", repeated);
  auto scope = single(query, "scope", repeated);
  auto nonce = single(query, "nonce", repeated);
  auto challenge = single(query, "code_challenge", repeated);
  auto method = single(query, "code_challenge_method", repeated);
  auto prompt = single(query, "prompt", repeated);
  // Every parameter, also those read elsewhere (ui_locales, login_request) or not at all.
  if (repeated || repeated_parameter(query))
    return fail("invalid_request", "a parameter was given more than once");

  if (!response_type) return fail("invalid_request", "response_type is required");
  if (*response_type != "code")
    return fail("unsupported_response_type", "only response_type=code is supported");

  if (!scope) return fail("invalid_scope", "scope is required and must include openid");
  auto scopes = parse_scope(*scope);
  if (!scopes) return fail("invalid_scope", "scope is malformed");
  if (!scopes->contains("openid")) return fail("invalid_scope", "scope must include openid");
  for (const std::string& s : scopes->items)
    if (!client->allowed_scopes.contains(s))
      return fail("invalid_scope", "scope '" + s + "' is not allowed for this client");
  req.scopes = std::move(*scopes);

  if (method && !challenge) return fail("invalid_request", "code_challenge_method without code_challenge");
  if (challenge) {
    // Without a method RFC 7636 means `plain`, which document 1 does not support.
    if (!method || *method != "S256") return fail("invalid_request", "code_challenge_method must be S256");
    if (!validate_code_challenge(*challenge)) return fail("invalid_request", "code_challenge is malformed");
    req.code_challenge = *challenge;
  } else if (client->is_public) {
    return fail("invalid_request", "PKCE (code_challenge with S256) is required for public clients");
  }

  req.nonce = nonce.value_or("");
  if (prompt) {
    if (*prompt == "none") {
      req.prompt = Prompt::none;
    } else if (*prompt == "login") {
      req.prompt = Prompt::login;
    } else if (*prompt == "consent") {
      req.prompt = Prompt::consent;
    } else {
      return fail("invalid_request", "prompt must be none, login or consent");
    }
  }
  // OpenID Connect Core §11: offline_access needs prompt=consent; without it the request for offline access
  // is ignored (the scope is dropped, so no refresh token is issued), never refused.
  if (req.prompt != Prompt::consent && req.scopes.contains("offline_access")) {
    std::erase(req.scopes.items, std::string("offline_access"));
  }
  return req;
}

}  // namespace core::oauth
