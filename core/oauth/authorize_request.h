#pragma once
// The rules of GET /oauth/authorize (document 1; RFC 6749 §4.1, RFC 7636, OpenID Connect Core §3.1.2),
// separated from HTTP: which requests are refused with an error page (never redirected: the redirect target
// itself is untrusted), which are redirected back with an error, and what a valid request asks for.

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/result.h"
#include "core/scope.h"

namespace core::oauth {

// What authorize needs to know of the client named by `client_id`.
struct ClientPolicy {
  std::vector<std::string> redirect_uris;  // registered; compared as exact strings
  ScopeSet allowed_scopes;
  bool is_public = false;  // no secret: PKCE is required
};

enum class Prompt { none_given, none, login, consent };

struct AuthorizeRequest {
  std::string client_id, redirect_uri, state, nonce, code_challenge;
  ScopeSet scopes;
  Prompt prompt = Prompt::none_given;
};

// How a refused request is answered.
struct AuthorizeError {
  // true: an HTML error page with status 400 and no redirect (unknown client, unregistered or missing
  // redirect_uri). false: 302 to redirect_uri with `error`, `error_description`, `state` and `iss`.
  bool page = false;
  std::string error;                // RFC 6749 §4.1.2.1 code, e.g. invalid_scope
  std::string description;          // human sentence
  std::string redirect_uri, state;  // where and what to echo, when !page
};

// Validates the query of an authorize request. `client` is nullopt when client_id names no client.
// Checks, in this order: client_id known and redirect_uri registered (page errors); response_type `code`
// (unsupported_response_type); scope present, well-formed, containing `openid` and within the allow-list
// (invalid_scope); PKCE: method S256 only, a challenge of the S256 shape, required for public clients
// (invalid_request); prompt one of none, login, consent (invalid_request; RFC: unknown values are errors
// for `prompt` combinations like `none login`); any other parameter given twice (invalid_request, RFC 6749
// §3.1). Then, OpenID Connect Core §11: `offline_access` is dropped from the scopes unless prompt=consent,
// so offline access is granted only on a consent screen shown for this very request.
std::variant<AuthorizeRequest, AuthorizeError> validate_authorize(
    const std::multimap<std::string, std::string>& query, const std::optional<ClientPolicy>& client);

}  // namespace core::oauth
