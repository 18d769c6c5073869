// Social sign-in for auth projects (docs/auth-social.md): the app's backend, holding the project key, starts
// a sign-in at one of the project's OpenID providers, hands the provider's answer back at the callback, and
// gets the end user's tokens; the browser only follows redirects. An email that already has an account is
// linked only after that account confirms (/social/link).

#include "edge/auth_projects/social_routes.h"
#include "core/ascii.h"
#include "core/auth/project_settings.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_routes.h"
#include "edge/auth_projects/login_tickets.h"
#include "edge/auth_projects/project_api.h"
#include "edge/auth_projects/social_identities.h"
#include "edge/auth_projects/social_oidc.h"
#include "edge/auth_projects/social_pending.h"
#include "edge/auth_projects/social_providers.h"
#include "edge/platform/envelope.h"
#include "native/crypto/password.h"

namespace edge::auth_projects {
namespace {

namespace oidc = native::oidc;

// Clock difference allowed between the provider and this server when checking an id_token's times.
constexpr std::int64_t kIdTokenLeewayS = 60;

Response social_off() {
  return envelope_error(403, "social sign-in is turned off for this project");
}

Response busy() {
  Response r = envelope_error(503, "too many sign-ins at once; retry in a moment");
  r.set_header("Retry-After", "1");
  return r;
}

// Errors of the network and of a provider that answered nonsense: the provider is at fault, not the caller.
bool upstream_failure(const core::Error& e) {
  return e.code == "oidc_unreachable" || e.code == "oidc_bad_response" || e.code == "oidc_bad_jwks" ||
         e.code == "oidc_bad_metadata" || e.code == "oidc_issuer_mismatch" ||
         e.code == "oidc_unsupported_provider" || e.code == "oidc_invalid_url" ||
         e.code == "oidc_insecure_url";
}

Response provider_failed(const core::Error& e) {
  return envelope_error(502, "the provider failed: " + e.message);
}

// A user who may not have tokens now, whatever proved who they are: the login rules.
std::optional<Response> refuse_user(const Project& project, const EndUser& user) {
  if (user.disabled) return envelope_error(403, "this account is disabled");
  if (project.settings.require_email_verification && !user.email_verified)
    return envelope_error(403, "confirm your email address before signing in");
  return std::nullopt;
}

// Tokens for `user`, or, unless `second_factor_checked`, the second-factor step when the user has one: a
// provider's sign-in stands in for the password, never for the second factor.
Response sign_in(App& app, const Request& req, const Project& project, const EndUser& user, bool new_user,
                 bool second_factor_checked) {
  if (!second_factor_checked && user.has_totp() && project.settings.sign_in_methods.totp) {
    auto ticket = issue_login_ticket(app, project, user, "social");
    if (!ticket) return envelope_error(ticket.error());
    return envelope_ok(json::object{{"mfaRequired", true},
                                    {"mfaTicket", *ticket},
                                    {"methods", json::array{"totp", "recovery_code"}},
                                    {"expiresIn", kLoginTicketLifetimeS}});
  }
  auto pair = start_session(app, project, user, session_facts(app, req, "social"));
  if (!pair) return envelope_error(pair.error());
  json::object data = signed_in_json(user, *pair);
  data["newUser"] = new_user;
  return envelope_ok(std::move(data));
}

Response start(App& app, SocialOidc& client, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.social) return social_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  auto redirect = core::require_string(std::get<json::object>(parsed), "redirectUri");
  if (!redirect) return envelope_error(redirect.error());
  auto provider = find_provider(app, project.id, req.param("providerId"));
  if (!provider) return envelope_error(provider.error());
  // The provider sends the browser, with the code, to this address: exactly one the project allows, so a
  // sign-in cannot be started toward a host that would collect the code.
  if (!core::auth::is_allowed_redirect(project.settings, *redirect))
    return envelope_error(400, "redirectUri is not one of the project's allowed redirect URLs");
  auto metadata = client.metadata(provider->issuer);
  if (!metadata) return provider_failed(metadata.error());
  auto request =
      oidc::authorization_request(*metadata, provider->client_id, *redirect, provider->scopes, app.random);
  if (!request) return envelope_error(400, request.error().message);
  auto saved = save_pending_sign_in(
      app, project, request->state,
      PendingSignIn{provider->id, *redirect, std::move(request->nonce), std::move(request->code_verifier)});
  if (!saved.ok()) return envelope_error(saved.error());
  return envelope_ok(json::object{
      {"authorizationUrl", request->url}, {"state", request->state}, {"expiresIn", kSocialStateLifetimeS}});
}

Response callback(App& app, SocialOidc& client, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.social) return social_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  const json::object& body = std::get<json::object>(parsed);
  auto state = core::require_string(body, "state");
  if (!state) return envelope_error(state.error());
  auto code = core::require_string(body, "code");
  if (!code) return envelope_error(code.error());
  auto iss = core::optional_string(body, "iss");
  if (!iss) return envelope_error(iss.error());

  // Taken before anything else: a state answers one callback, whatever happens next.
  auto pending = take_pending_sign_in(app, project, *state);
  if (!pending) return envelope_error(pending.error());
  if (!*pending) return envelope_unauthorized("the state is unknown, expired or already used");
  auto provider = find_provider(app, project.id, (*pending)->provider_id);
  if (!provider) return envelope_error(provider.error());
  auto metadata = client.metadata(provider->issuer);
  if (!metadata) return provider_failed(metadata.error());
  // RFC 9207: a response that names its issuer must name the one this sign-in went to (a mix-up between
  // providers sends a code to the wrong token endpoint).
  if (*iss && **iss != metadata->issuer)
    return envelope_unauthorized("the authorization response comes from another issuer than this sign-in's");
  auto secret = provider_client_secret(app, *provider);
  if (!secret) return envelope_error(secret.error());
  auto tokens = oidc::exchange_code(*metadata, provider->client_id, *secret, (*pending)->redirect_uri, *code,
                                    (*pending)->code_verifier, client.fetch_options());
  if (!tokens) {
    if (tokens.error().code == "oidc_token_refused")
      return envelope_unauthorized("the provider refused the code: " + tokens.error().message);
    return provider_failed(tokens.error());
  }
  auto identity = oidc::validate_id_token(tokens->id_token, client.jwks(), *metadata, provider->client_id,
                                          (*pending)->nonce, app.clock.now_ms() / 1000, kIdTokenLeewayS);
  if (!identity) {
    if (upstream_failure(identity.error())) return provider_failed(identity.error());
    return envelope_unauthorized("the provider's id_token was refused (" + identity.error().code +
                                 "): " + identity.error().message);
  }

  auto outcome = resolve_identity(app, project,
                                  ProviderIdentity{provider->id, identity->sub, identity->email,
                                                   identity->name, identity->email_verified});
  if (!outcome) return envelope_error(outcome.error());
  using Kind = SocialOutcome::Kind;
  switch (outcome->kind) {
    case Kind::no_email:
      return envelope_error(422, "the provider shared no email address; ask for the email scope");
    case Kind::invalid_email:
      return envelope_error(422, "the provider's email address is not one this project accepts");
    case Kind::link_required: {
      // A failure the app acts on: the envelope's data carries what it needs for /social/link.
      const std::string message =
          "an account with this email already exists; it must confirm before the provider is linked";
      Response r = envelope_error(409, message);
      r.body = core::json::serialize(json::object{{"data", json::object{{"linkRequired", true},
                                                                        {"linkTicket", outcome->link_ticket},
                                                                        {"email", outcome->user.email},
                                                                        {"providerId", provider->id},
                                                                        {"expiresIn", kLinkTicketLifetimeS}}},
                                                  {"error", message}});
      return r;
    }
    case Kind::signed_in:
    case Kind::created:
      break;
  }
  if (auto refused = refuse_user(project, outcome->user)) return std::move(*refused);
  return sign_in(app, req, project, outcome->user, outcome->kind == Kind::created, false);
}

Response link(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.social) return social_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  const json::object& body = std::get<json::object>(parsed);
  auto ticket = core::require_string(body, "linkTicket");
  if (!ticket) return envelope_error(ticket.error());
  auto password = core::optional_string(body, "password");
  if (!password) return envelope_error(password.error());
  auto access_token = core::optional_string(body, "accessToken");
  if (!access_token) return envelope_error(access_token.error());
  if (password->has_value() == access_token->has_value())
    return envelope_error(400, "give either 'password' or 'accessToken' of the existing account");

  const std::string ticket_invalid = "the link ticket is invalid, expired or already used";
  auto facts = peek_link_ticket(app, project, *ticket);
  if (!facts) return envelope_error(facts.error());
  if (!*facts) return envelope_unauthorized(ticket_invalid);
  auto found = find_user(app, project.id, (*facts)->user_id);
  if (!found) return envelope_error(found.error());
  if (!*found) return envelope_unauthorized(ticket_invalid);
  const EndUser& user = **found;

  if (password->has_value()) {
    const std::string& typed = **password;
    // The budget of a wrong password at /login: guesses here and there add up.
    Attempt attempt = failure_attempt(app, req, project, core::to_ascii_lower(user.email));
    if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
    // The password alone would skip the account's second factor; a full sign-in then links by its token.
    if (user.has_totp() && project.settings.sign_in_methods.totp) {
      attempt.not_counted();
      return envelope_error(
          403, "this account has a second factor: sign in to it fully, then link with its accessToken");
    }
    bool matches = false;
    if (typed.size() <= core::auth::kMaxPasswordBytes) {
      // A password-less account hashes against a decoy: the same slot and the same time.
      HashSlots::Ticket slot = app.signin_hashes.acquire();
      if (!slot) return busy();
      const std::string& hash =
          user.password_hash.empty() ? native::decoy_password_hash() : user.password_hash;
      matches = native::verify_password(hash, typed) && !user.password_hash.empty();
    }
    if (!matches) {
      attempt.failed();
      if (auto st = fail_link_ticket(app, project, *ticket); !st.ok()) return envelope_error(st.error());
      return envelope_unauthorized("wrong password for the existing account");
    }
    attempt.succeeded();
  } else {
    EndUser holder;
    std::string sid;
    if (auto refused = authenticate_end_user(app, **access_token, project, holder, sid))
      return std::move(*refused);
    if (holder.id != user.id) {
      if (auto st = fail_link_ticket(app, project, *ticket); !st.ok()) return envelope_error(st.error());
      return envelope_unauthorized("the access token belongs to another account than the link ticket's");
    }
  }

  auto linked = link_with_ticket(app, project, *ticket);
  if (!linked) {
    if (linked.error().code == "not_found") return envelope_unauthorized(ticket_invalid);
    return envelope_error(linked.error());
  }
  if (!*linked) return envelope_unauthorized(ticket_invalid);
  if (auto refused = refuse_user(project, **linked)) return std::move(*refused);
  // Either the account has no second factor (the password path refuses those), or its access token came
  // from a sign-in that passed it.
  return sign_in(app, req, project, **linked, false, true);
}

}  // namespace

void register_social_end_user_routes(App& app, std::shared_ptr<SocialOidc> client) {
  add_project_route(
      app, "POST", "/social/{providerId}/start", Access::project_key,
      [&app, client](Request& req, const ProjectContext& ctx) { return start(app, *client, req, ctx); });
  add_project_route(
      app, "POST", "/social/callback", Access::project_key,
      [&app, client](Request& req, const ProjectContext& ctx) { return callback(app, *client, req, ctx); });
  add_project_route(app, "POST", "/social/link", Access::project_key,
                    [&app](Request& req, const ProjectContext& ctx) { return link(app, req, ctx); });
}

void register_social_routes(App& app) {
  auto client = std::make_shared<SocialOidc>(app.clock);
  register_social_provider_routes(app, client);
  register_social_end_user_routes(app, client);
}

}  // namespace edge::auth_projects
