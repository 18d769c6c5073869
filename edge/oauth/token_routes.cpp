// POST /oauth/token (RFC 6749 §4.1.3, §6), /oauth/revoke (RFC 7009), /oauth/introspect (RFC 7662) and
// GET/POST /oauth/userinfo (OpenID Connect Core §5.3, RFC 6750).

#include "core/oauth/claims.h"
#include "core/oauth/parameters.h"
#include "core/pkce.h"
#include "core/scope.h"
#include "core/token.h"
#include "edge/app.h"
#include "edge/oauth/oauth_http.h"
#include "edge/oauth/oauth_routes.h"

namespace edge::oauth {
namespace json = core::json;
namespace {

// The form body of a token, revoke or introspect request, or the invalid_request answer when a parameter
// occurs twice (RFC 6749 §3.2): no endpoint picks one of two values.
std::variant<std::map<std::string, std::string>, Response> form_of(const Request& req) {
  auto params = parse_url_encoded(req.body);
  if (auto name = core::oauth::repeated_parameter(params))
    return oauth_error(400, "invalid_request", "parameter '" + *name + "' was given more than once");
  return std::map<std::string, std::string>(params.begin(), params.end());
}

// The form of an endpoint that authenticates its client (token, revoke, introspect) with that client.
struct ClientForm {
  std::map<std::string, std::string> form;
  OAuthClient client;
};

// The request's form and authenticated client, or the answer that refuses it (a repeated parameter, client
// authentication failed).
std::variant<ClientForm, Response> client_form(App& app, const Request& req) {
  auto parsed = form_of(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  auto& form = std::get<std::map<std::string, std::string>>(parsed);
  auto authed = authenticate_client(app, req, form);
  if (auto* r = std::get_if<Response>(&authed)) return std::move(*r);
  return ClientForm{std::move(form), std::move(std::get<OAuthClient>(authed))};
}

std::optional<std::string> field(const std::map<std::string, std::string>& form, const char* name) {
  auto it = form.find(name);
  if (it == form.end()) return std::nullopt;
  return it->second;
}

core::oauth::UserProfile profile_of(const User& u) {
  std::string username = u.email.substr(0, u.email.find('@'));
  return {u.id, u.name, username, u.picture, u.email, u.email_verified};
}

Response token_response(App& app, const OAuthClient& client, const IssuedTokens& issued) {
  auto user = app.accounts->user_by_id(issued.user_id);
  if (!user) return oauth_error(400, "invalid_grant", "the user no longer exists");
  core::ScopeSet scopes;
  scopes.items = issued.scopes;
  core::oauth::IdTokenFacts facts{app.config.auth_url, client.client_id, issued.nonce,
                                  issued.auth_time_ms / 1000, issued.access.issued_at_ms / 1000};
  json::object body{
      {"access_token", issued.access_token},
      {"token_type", "Bearer"},
      {"expires_in", core::oauth::kAccessTokenLifetimeS},
      {"scope", scopes.to_string()},
      {"id_token", app.id_tokens->sign(core::oauth::id_token_claims(profile_of(*user), scopes, facts))}};
  if (!issued.refresh_token.empty()) body["refresh_token"] = issued.refresh_token;
  return oauth_json(body);
}

// The grant itself, once the client is authenticated and within its limit.
Response grant(App& app, const OAuthClient& client, const std::map<std::string, std::string>& form) {
  auto grant_type = field(form, "grant_type");
  if (!grant_type) return oauth_error(400, "invalid_request", "grant_type is required");

  core::Result<std::variant<IssuedTokens, GrantRefusal>> result = core::make_error("internal", "");
  if (*grant_type == "authorization_code") {
    auto code = field(form, "code");
    auto redirect_uri = field(form, "redirect_uri");
    if (!code || code->empty()) return oauth_error(400, "invalid_request", "code is required");
    if (!redirect_uri) return oauth_error(400, "invalid_request", "redirect_uri is required");
    auto verifier = field(form, "code_verifier");
    if (verifier && !core::validate_code_verifier(*verifier))
      return oauth_error(400, "invalid_request",
                         "code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]");
    if (!core::has_token_shape(core::TokenKind::oauth_code, *code))
      return oauth_error(400, "invalid_grant", "authorization code is unknown");
    result = app.oauth->exchange_code(*code, {client.client_id, *redirect_uri, verifier});
  } else if (*grant_type == "refresh_token") {
    auto refresh = field(form, "refresh_token");
    if (!refresh || refresh->empty()) return oauth_error(400, "invalid_request", "refresh_token is required");
    std::optional<core::ScopeSet> narrowed;
    if (auto scope = field(form, "scope")) {
      auto parsed = core::parse_scope(*scope);
      if (!parsed) return oauth_error(400, "invalid_scope", "scope is malformed");
      narrowed = *parsed;
    }
    if (!core::has_token_shape(core::TokenKind::oauth_refresh, *refresh))
      return oauth_error(400, "invalid_grant", "refresh token is unknown");
    result = app.oauth->refresh(*refresh, client.client_id, narrowed);
  } else {
    return oauth_error(400, "unsupported_grant_type",
                       "grant_type must be authorization_code or refresh_token");
  }
  if (!result) return oauth_error(500, "server_error", "storage failure");
  if (auto* refusal = std::get_if<GrantRefusal>(&*result))
    return oauth_error(400, refusal->error, refusal->description);
  return token_response(app, client, std::get<IssuedTokens>(*result));
}

Response too_many(const RateLimiter::Decision& limit) {
  Response r = oauth_error(429, "slow_down", "too many token requests; retry later");
  r.set_header("Retry-After", std::to_string(limit.retry_after_seconds));
  return r;
}

// Rate limits (--oauth-token-rate-limit). A confidential client's requests all count, keyed by the client:
// only the holder of its secret can spend them. A public client's id is public, so a per-client count
// could be spent by anyone, locking out every user of the app: its key is the client and the caller's
// address, and only requests that fail (4xx) count, so successful exchanges and refreshes are never
// limited and an attacker spends only their own address's budget.
Response token(App& app, Request& req) {
  auto in = client_form(app, req);
  if (auto* r = std::get_if<Response>(&in)) return std::move(*r);
  const auto& [form, client] = std::get<ClientForm>(in);
  if (!client.is_public) {
    auto limit = app.token_limiter.take(client.client_id, app.clock.now_ms());
    if (!limit.allowed) return too_many(limit);
    return grant(app, client, form);
  }
  std::string key = client.client_id + " " + req.remote_addr;
  if (auto limit = app.token_limiter.check(key, app.clock.now_ms()); !limit.allowed) return too_many(limit);
  Response r = grant(app, client, form);
  if (r.status >= 400 && r.status < 500) (void)app.token_limiter.take(key, app.clock.now_ms());
  return r;
}

Response revoke(App& app, Request& req) {
  auto in = client_form(app, req);
  if (auto* r = std::get_if<Response>(&in)) return std::move(*r);
  const auto& [form, client] = std::get<ClientForm>(in);
  auto token = field(form, "token");
  if (!token) return oauth_error(400, "invalid_request", "token is required");
  // token_type_hint is only a hint (RFC 7009 §2.1): both kinds are looked up by the same hash anyway.
  if (!app.oauth->revoke(*token, client.client_id))
    return oauth_error(503, "temporarily_unavailable", "storage failure; retry");
  Response r;
  r.body = "";
  r.set_header("Cache-Control", "no-store");
  return r;
}

Response introspect(App& app, Request& req) {
  auto in = client_form(app, req);
  if (auto* r = std::get_if<Response>(&in)) return std::move(*r);
  const auto& [form, client] = std::get<ClientForm>(in);
  auto token = field(form, "token");
  if (!token) return oauth_error(400, "invalid_request", "token is required");
  auto found = app.oauth->token(*token);
  if (!found) return oauth_error(503, "temporarily_unavailable", "storage failure; retry");
  const auto& stored = *found;
  std::int64_t now = app.clock.now_ms();
  // Another client's token is inactive to this one whatever its state (document 1).
  if (!stored || stored->client_id != client.client_id ||
      !core::oauth::is_live(stored->revoked || stored->rotated, stored->expires_at_ms, now))
    return oauth_json(json::object{{"active", false}});
  core::ScopeSet scopes;
  scopes.items = stored->scopes;
  return oauth_json(
      json::object{{"active", true},
                   {"scope", scopes.to_string()},
                   {"client_id", stored->client_id},
                   {"sub", stored->user_id},
                   {"token_type", stored->kind == StoredToken::Kind::access ? "Bearer" : "refresh_token"},
                   {"exp", stored->expires_at_ms / 1000},
                   {"iat", stored->issued_at_ms / 1000},
                   {"iss", app.config.auth_url}});
}

Response invalid_token(std::string_view description) {
  Response r = oauth_json(json::object{{"error", "invalid_token"}, {"error_description", description}}, 401);
  r.set_header("WWW-Authenticate",
               "Bearer error=\"invalid_token\", error_description=\"" + std::string(description) + "\"");
  return r;
}

Response userinfo(App& app, Request& req) {
  std::string_view auth = req.header("authorization");
  if (auth.rfind("Bearer ", 0) != 0) {
    Response r = oauth_json(json::object{{"error", "invalid_request"},
                                         {"error_description", "a Bearer access token is required"}},
                            401);
    r.set_header("WWW-Authenticate", "Bearer");
    return r;
  }
  std::string_view plaintext = auth.substr(7);
  if (!core::has_token_shape(core::TokenKind::oauth_access, plaintext))
    return invalid_token("access token is malformed");
  auto found = app.oauth->token(plaintext);
  // An outage is not an invalid token (RFC 6750 §3.1 has no code for it): 503, and the client retries
  // instead of throwing the token away.
  if (!found) return oauth_error(503, "temporarily_unavailable", "storage failure; retry");
  const auto& stored = *found;
  if (!stored || stored->kind != StoredToken::Kind::access) return invalid_token("access token is unknown");
  if (!core::oauth::is_live(stored->revoked, stored->expires_at_ms, app.clock.now_ms()))
    return invalid_token(stored->revoked ? "access token has been revoked" : "access token has expired");
  auto user = app.accounts->user_by_id(stored->user_id);
  if (!user) return invalid_token("the user no longer exists");
  core::ScopeSet scopes;
  scopes.items = stored->scopes;
  return oauth_json(core::oauth::scope_claims(profile_of(*user), scopes));
}

}  // namespace

void register_token_routes(App& app) {
  Router& r = app.router;
  r.add("POST", "/oauth/token", [&app](Request& req) { return token(app, req); });
  r.add("POST", "/oauth/revoke", [&app](Request& req) { return revoke(app, req); });
  // Introspection and userinfo only read (a client and a token by hash, a user): on the I/O thread.
  const RouteOptions read = {.nonblocking = true};
  r.add(
      "POST", "/oauth/introspect", [&app](Request& req) { return introspect(app, req); }, read);
  r.add(
      "GET", "/oauth/userinfo", [&app](Request& req) { return userinfo(app, req); }, read);
  r.add(
      "POST", "/oauth/userinfo", [&app](Request& req) { return userinfo(app, req); }, read);
}

}  // namespace edge::oauth
