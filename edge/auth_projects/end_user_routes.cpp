// The end-user endpoints of document 2 ("Auth project API") with the bodies of DECISIONS.md: signup,
// login, refresh, logout, userinfo, verify-email, password reset and jwks.json; and the key-holder's view of
// a user's sessions. docs/auth-projects.md has the statuses and bodies.

#include "core/ascii.h"
#include "core/auth/link_mail.h"
#include "core/jwk.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_routes.h"
#include "edge/auth_projects/link_tokens.h"
#include "edge/auth_projects/login_tickets.h"
#include "edge/auth_projects/project_api.h"
#include "edge/auth_projects/signing_keys.h"
#include "edge/platform/envelope.h"
#include "edge/platform/record_json.h"
#include "native/crypto/password.h"

namespace edge::auth_projects {
namespace {

using core::auth::LinkPurpose;

Response password_method_off() {
  return envelope_error(403, "password sign-in is turned off for this project");
}

Response busy() {
  Response r = envelope_error(503, "too many sign-ins at once; retry in a moment");
  r.set_header("Retry-After", "1");
  return r;
}

// Sends the verification mail after signup when the project can send mail; a project without a sender
// simply does not send (its dashboard says so).
void send_verification_if_possible(App& app, const Project& project, const EndUser& user,
                                   std::string_view redirect, std::string_view locale) {
  auto domain = sender_domain(app, project);
  auto target = link_target(project, redirect);
  if (!domain || !target) return;
  (void)send_link_mail(app, project, *domain, user, LinkPurpose::verify_email, *target, locale);
}

Response signup(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.password) return password_method_off();
  BodyReader body(req);
  const std::string email = body.required("email"), password = body.required("password");
  const std::string name = body.optional("name"), target = body.optional("redirectUrl");
  const std::string locale = body.optional("locale");
  if (auto bad = body.problem()) return std::move(*bad);
  if (name.size() > 200) return envelope_error(400, "'name' must be at most 200 characters");

  Attempt attempt = failure_attempt(app, req, project, core::to_ascii_lower(email));
  if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
  if (auto st = core::validate_email(email); !st.ok()) {
    attempt.failed();
    return envelope_error(400, st.error().message);
  }
  if (auto st = core::auth::check_password(project.settings.password_policy, password); !st.ok()) {
    attempt.failed();
    return envelope_error(400, st.error().message);
  }
  if (!target.empty() && !core::auth::is_allowed_redirect(project.settings, target)) {
    attempt.failed();
    return envelope_error(400, "redirectUrl is not one of the project's allowed redirect URLs");
  }
  core::Result<EndUser> user = core::make_error("busy", "");
  {
    HashSlots::Ticket slot = app.signin_hashes.acquire();
    if (!slot) return busy();
    user = create_user(app, project, email, password, name, false);
  }
  if (!user) {
    if (user.error().code == "conflict") attempt.failed();
    return envelope_error(user.error());
  }
  attempt.succeeded();
  send_verification_if_possible(app, project, *user, target, locale);
  if (project.settings.require_email_verification)
    return envelope_ok(json::object{{"user", to_api(*user)},
                                    {"accessToken", nullptr},
                                    {"refreshToken", nullptr},
                                    {"verificationRequired", true}},
                       201);
  auto pair = start_session(app, project, *user, session_facts(app, req, "pwd"));
  if (!pair) return envelope_error(pair.error());
  return envelope_ok(signed_in_json(*user, *pair), 201);
}

Response login(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.password) return password_method_off();
  BodyReader body(req);
  const std::string email = body.required("email"), password = body.required("password");
  if (auto bad = body.problem()) return std::move(*bad);

  Attempt attempt = failure_attempt(app, req, project, core::to_ascii_lower(email));
  if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
  if (password.size() > core::auth::kMaxPasswordBytes) {
    attempt.failed();
    return envelope_unauthorized("invalid email or password");
  }
  auto found = find_user_by_email(app, project.id, email);
  if (!found) return envelope_error(found.error());
  bool matches = false;
  {
    // Unknown emails and password-less users hash too (against a decoy): the same slot and the same time.
    HashSlots::Ticket slot = app.signin_hashes.acquire();
    if (!slot) return busy();
    const std::string& hash =
        *found && !(*found)->password_hash.empty() ? (*found)->password_hash : native::decoy_password_hash();
    matches = native::verify_password(hash, password) && *found && !(*found)->password_hash.empty();
  }
  if (!matches) {
    attempt.failed();
    return envelope_unauthorized("invalid email or password");
  }
  const EndUser& user = **found;
  if (user.disabled) {
    attempt.not_counted();
    return envelope_error(403, "this account is disabled");
  }
  if (project.settings.require_email_verification && !user.email_verified) {
    attempt.not_counted();
    return envelope_error(403, "confirm your email address before signing in");
  }
  attempt.succeeded();
  if (user.has_totp() && project.settings.sign_in_methods.totp) {
    auto ticket = issue_login_ticket(app, project, user, "pwd");
    if (!ticket) return envelope_error(ticket.error());
    return envelope_ok(json::object{{"mfaRequired", true},
                                    {"mfaTicket", *ticket},
                                    {"methods", json::array{"totp", "recovery_code"}},
                                    {"expiresIn", kLoginTicketLifetimeS}});
  }
  auto pair = start_session(app, project, user, session_facts(app, req, "pwd"));
  if (!pair) return envelope_error(pair.error());
  return envelope_ok(signed_in_json(user, *pair));
}

json::object pair_json(const TokenPair& pair) {
  return json::object{{"accessToken", pair.access_token},
                      {"refreshToken", pair.refresh_token},
                      {"tokenType", "Bearer"},
                      {"expiresIn", pair.expires_in}};
}

Response refresh(App& app, Request& req, const ProjectContext& ctx) {
  BodyReader body(req);
  const std::string token = body.required("refreshToken");
  if (auto bad = body.problem()) return std::move(*bad);
  auto result = refresh_session(app, ctx.project, token);
  if (!result) return envelope_error(result.error());
  if (auto* refused = std::get_if<RefreshRefusal>(&*result))
    return envelope_unauthorized(refused->replayed
                                     ? "this refresh token was already used; the session is revoked"
                                     : "the refresh token is invalid, expired or revoked");
  return envelope_ok(pair_json(std::get<TokenPair>(*result)));
}

Response logout_route(App& app, Request& req, const ProjectContext& ctx) {
  BodyReader body(req);
  const std::string token = body.required("refreshToken");
  if (auto bad = body.problem()) return std::move(*bad);
  auto ended = logout(app, ctx.project, token);
  if (!ended) return envelope_error(ended.error());
  // RFC 7009 §2.2 spirit: an unknown or already revoked token is not an error for the caller.
  return envelope_ok(json::object{{"revoked", *ended}});
}

Response userinfo(App& app, Request& req, const ProjectContext& ctx) {
  EndUser user;
  std::string sid;
  if (auto refused = authenticate_end_user(app, bearer_of(req), ctx.project, user, sid))
    return std::move(*refused);
  json::object data = to_api(user);
  data["sessionId"] = sid;
  return envelope_ok(std::move(data));
}

Response jwks(App& app, Request&, const ProjectContext& ctx) {
  auto keys = app.auth_signing_keys->published(ctx.project);
  if (!keys) return envelope_error(keys.error());
  json::array list;
  for (const auto& k : *keys) list.push_back(core::to_jwk(k));
  // A JWK Set as RFC 7517 §5 has it (not in the envelope): what JOSE libraries fetch.
  Response r;
  r.body = core::to_json(json::object{{"keys", std::move(list)}});
  r.set_header("Cache-Control", "public, max-age=300");
  r.set_header("Access-Control-Allow-Origin", "*");
  return r;
}

Response verify_email(App& app, Request& req, const ProjectContext& ctx) {
  BodyReader body(req);
  const std::string token = body.required("token");
  if (auto bad = body.problem()) return std::move(*bad);
  auto used = use_link(app, ctx.project, token, LinkPurpose::verify_email,
                       [](store::WriteTxn&, EndUser& u) { u.email_verified = true; });
  if (!used) return envelope_error(used.error());
  if (!*used) return envelope_error(400, "the verification link is invalid, expired or already used");
  return envelope_ok(json::object{{"user", to_api(**used)}});
}

// verify-email/request and password-reset/request: 202 whatever the email, so the answer never says
// whether an account exists. Both paths make one durable write (a per-project request counter), so they
// also take about the same time.
Response request_link(App& app, Request& req, const ProjectContext& ctx, LinkPurpose purpose) {
  const Project& project = ctx.project;
  BodyReader body(req);
  const std::string email = body.required("email"), redirect = body.optional("redirectUrl");
  const std::string locale = body.optional("locale");
  if (auto bad = body.problem()) return std::move(*bad);
  if (auto st = core::validate_email(email); !st.ok()) return envelope_error(400, st.error().message);
  auto target = link_target(project, redirect);
  if (!target)
    return envelope_error(target.error().code == "invalid_redirect" ? 400 : 422, target.error().message);
  auto domain = sender_domain(app, project);
  if (!domain) return envelope_error(domain.error());

  Attempt attempt = mail_attempt(app, req, project, email);
  if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
  attempt.failed();  // every request counts: each may send a mail

  auto user = find_user_by_email(app, project.id, email);
  if (!user) return envelope_error(user.error());
  const bool wanted =
      *user && !(*user)->disabled && (purpose == LinkPurpose::password_reset || !(*user)->email_verified);
  core::Status sent = wanted ? send_link_mail(app, project, *domain, **user, purpose, *target, locale)
                             : note_link_request(app, project);
  if (!sent.ok()) return envelope_error(sent.error());
  return envelope_ok(json::object{{"accepted", true}}, 202);
}

Response reset_confirm(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  BodyReader body(req);
  const std::string token = body.required("token"), password = body.required("password");
  if (auto bad = body.problem()) return std::move(*bad);

  Attempt attempt = failure_attempt(app, req, project, "reset");
  if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
  auto peeked = peek_link(app, project, token, LinkPurpose::password_reset);
  if (!peeked) return envelope_error(peeked.error());
  if (!*peeked) {
    attempt.failed();
    return envelope_error(400, "the reset link is invalid, expired or already used");
  }
  attempt.not_counted();
  if (auto st = core::auth::check_password(project.settings.password_policy, password); !st.ok())
    return envelope_error(400, st.error().message);
  std::string hash;
  {
    HashSlots::Ticket slot = app.signin_hashes.acquire();
    if (!slot) return busy();
    hash = native::hash_password(password);
  }
  if (hash.empty()) return envelope_error(503, "the server is out of memory; try again");
  std::size_t ended = 0;
  const std::int64_t now = app.clock.now_ms();
  auto used =
      use_link(app, project, token, LinkPurpose::password_reset, [&](store::WriteTxn& txn, EndUser& u) {
        u.password_hash = hash;
        // The reset proves the mailbox: the address is confirmed too.
        u.email_verified = true;
        ended = revoke_sessions_of_user_in(txn, app.auth_table, project.id, u.id, now);
      });
  if (!used) return envelope_error(used.error());
  if (!*used) return envelope_error(400, "the reset link is invalid, expired or already used");
  return envelope_ok(json::object{{"user", to_api(**used)}, {"sessionsRevoked", ended}});
}

// The key holder's view of a user's sessions.
Response user_sessions(App& app, Request& req, const ProjectContext& ctx) {
  auto user = find_user(app, ctx.project.id, req.param("userId"));
  if (!user) return envelope_error(user.error());
  if (!*user) return envelope_error(404, "user not found");
  auto sessions = list_sessions(app, ctx.project.id, (*user)->id);
  if (!sessions) return envelope_error(sessions.error());
  json::array out;
  for (const auto& s : *sessions) out.push_back(to_api(s));
  return envelope_ok(std::move(out));
}

}  // namespace

void register_end_user_routes(App& app) {
  auto bind = [&app](Response (*fn)(App&, Request&, const ProjectContext&)) {
    return [&app, fn](Request& req, const ProjectContext& ctx) { return fn(app, req, ctx); };
  };
  add_project_route(app, "POST", "/signup", Access::project_key, bind(signup));
  add_project_route(app, "POST", "/login", Access::project_key, bind(login));
  add_project_route(app, "POST", "/refresh", Access::project_key, bind(refresh));
  add_project_route(app, "POST", "/logout", Access::project_key, bind(logout_route));
  add_project_route(app, "GET", "/userinfo", Access::open, bind(userinfo));
  add_project_route(app, "GET", "/jwks.json", Access::open, bind(jwks), RouteOptions{.nonblocking = true});
  add_project_route(app, "POST", "/verify-email", Access::project_key, bind(verify_email));
  add_project_route(app, "POST", "/verify-email/request", Access::project_key,
                    [&app](Request& req, const ProjectContext& ctx) {
                      return request_link(app, req, ctx, LinkPurpose::verify_email);
                    });
  add_project_route(app, "POST", "/password-reset/request", Access::project_key,
                    [&app](Request& req, const ProjectContext& ctx) {
                      return request_link(app, req, ctx, LinkPurpose::password_reset);
                    });
  add_project_route(app, "POST", "/password-reset/confirm", Access::project_key, bind(reset_confirm));
  add_project_route(app, "GET", "/users/{userId}/sessions", Access::project_key, bind(user_sessions));
  add_project_route(app, "DELETE", "/users/{userId}/sessions/{sessionId}", Access::project_key,
                    [&app](Request& req, const ProjectContext& ctx) {
                      auto st =
                          revoke_session(app, ctx.project.id, req.param("userId"), req.param("sessionId"));
                      if (!st.ok()) return envelope_error(st.error());
                      return envelope_ok(json::object{{"revoked", true}});
                    });
  add_project_route(app, "DELETE", "/users/{userId}/sessions", Access::project_key,
                    [&app](Request& req, const ProjectContext& ctx) {
                      auto n = revoke_all_sessions(app, ctx.project.id, req.param("userId"));
                      if (!n) return envelope_error(n.error());
                      return envelope_ok(json::object{{"revoked", *n}});
                    });
}

}  // namespace edge::auth_projects
