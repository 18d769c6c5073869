// The end-user endpoints of TOTP second factors (docs/auth-mfa.md has the statuses and bodies):
// enrolment (enroll, confirm), disable, recovery-code regeneration, and the second login step that turns
// the ticket of /login (login_tickets.h) into a session. All take the project key; the user calls carry the
// user's access token in `accessToken`.
//
// Every check of a factor and its consumption (the accepted TOTP step becomes `lastStep`, a recovery code
// is removed) happen in the one transaction of update_user, so two requests presenting the same code
// cannot both pass.

#include "edge/auth_projects/mfa_routes.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "core/auth/base32.h"
#include "core/auth/otpauth_uri.h"
#include "core/auth/recovery_code.h"
#include "core/auth/totp.h"
#include "core/crypto.h"
#include "core/sealed.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_routes.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/login_tickets.h"
#include "edge/auth_projects/project_api.h"
#include "edge/platform/envelope.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {

std::string totp_secret_binding(std::string_view pid, std::string_view uid) {
  return user_key(pid, uid) + "#mfa.totp";
}

void remove_totp(EndUser& user) {
  user.mfa.erase("totp");
  user.mfa.erase("recoveryCodes");
}

namespace {

// What authenticator apps assume (and several ignore the URI's parameters): SHA-1, 6 digits, 30 s, and
// one step either side for clock drift and typing time.
const core::auth::TotpParams kTotpParams{};
constexpr std::size_t kRecoveryCodeCount = 10;

Response totp_method_off() {
  return envelope_error(403, "TOTP second factors are turned off for this project");
}

Response ticket_refused() {
  return envelope_unauthorized("the MFA ticket is invalid, expired or already used; sign in again");
}

core::Error totp_not_enabled() {
  return core::make_error("conflict", "TOTP is not enabled for this user");
}

core::Error unknown_recovery_code() {
  return core::make_error("invalid_recovery_code", "the recovery code is not valid or was already used");
}

// The errors of a second factor that was presented but is not right: the caller's to count.
bool is_wrong_factor(const core::Error& e) {
  return e.code == "invalid_code" || e.code == "code_reused" || e.code == "invalid_recovery_code";
}

std::int64_t now_s(App& app) {
  return app.clock.now_ms() / 1000;
}

json::object* totp_member(EndUser& u) {
  auto* totp = u.mfa.if_contains("totp");
  return totp && totp->is_object() ? &totp->get_object() : nullptr;
}

// The request's body and the user its `accessToken` names (a live session of this project), or the
// response to answer (400 for a bad body, 401 for a missing or refused token).
struct UserCall {
  json::object body;
  EndUser user;
};
std::variant<UserCall, Response> user_call(App& app, const Request& req, const Project& project) {
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  UserCall call{std::move(std::get<json::object>(parsed)), {}};
  auto token = core::optional_string(call.body, "accessToken");
  if (!token) return envelope_error(token.error());
  std::string sid;
  if (auto refused = authenticate_end_user(app, token->value_or(""), project, call.user, sid))
    return std::move(*refused);
  return call;
}

// A second factor as a request presents it: `code` (TOTP) or `recoveryCode`.
struct Factor {
  bool recovery = false;
  std::string value;
};
// Exactly one of `code` and, when `recovery_allowed`, `recoveryCode`; otherwise the 400.
std::variant<Factor, Response> factor_of(const json::object& body, bool recovery_allowed) {
  if (!recovery_allowed) {
    auto code = core::require_string(body, "code");
    if (!code) return envelope_error(code.error());
    return Factor{false, std::move(*code)};
  }
  auto code = core::optional_string(body, "code");
  if (!code) return envelope_error(code.error());
  auto recovery = core::optional_string(body, "recoveryCode");
  if (!recovery) return envelope_error(recovery.error());
  if (code->has_value() == recovery->has_value())
    return envelope_error(400, "give either 'code' (from the authenticator app) or 'recoveryCode'");
  if (*code) return Factor{false, std::move(**code)};
  return Factor{true, std::move(**recovery)};
}

// Checks `code` against the TOTP secret of `totp` (pending or enabled) under the replay rule, and records
// the accepted step. Errors: those of core::auth::verify_totp, `sealed_invalid` (the secret does not open
// under this deployment's key), `internal`.
core::Status accept_totp_code(const App& app, const EndUser& u, json::object& totp, std::string_view code,
                              std::int64_t now) {
  auto secret_b32 =
      core::unseal(app.secret_key, record::str(totp, "secret"), totp_secret_binding(u.project_id, u.id));
  if (!secret_b32) return secret_b32.error();
  auto secret = core::auth::base32_decode(*secret_b32);
  if (!secret) return core::make_error("internal", "the stored TOTP secret is damaged");
  std::optional<std::uint64_t> last;
  if (auto n = record::opt_num(totp, "lastStep")) last = static_cast<std::uint64_t>(*n);
  auto step = core::auth::verify_totp(*secret, code, now, kTotpParams, last);
  if (!step) return step.error();
  totp["lastStep"] = static_cast<std::int64_t>(*step);
  return {};
}

// Checks a factor against the user's enabled TOTP and consumes it (inside update_user). Errors:
// `conflict` (no TOTP enabled), the wrong-factor codes (is_wrong_factor), those of accept_totp_code.
core::Status consume_factor(const App& app, EndUser& u, const Factor& f, std::int64_t now) {
  json::object* totp = totp_member(u);
  if (!totp || !u.has_totp()) return totp_not_enabled();
  if (!f.recovery) return accept_totp_code(app, u, *totp, f.value, now);
  auto normalized = core::auth::normalize_recovery_code(f.value);
  if (!normalized) return normalized.error();
  const std::string hash = core::sha256_hex(*normalized);
  auto* codes = u.mfa.if_contains("recoveryCodes");
  if (!codes || !codes->is_array()) return unknown_recovery_code();
  json::array& list = codes->get_array();
  auto it = std::find_if(list.begin(), list.end(),
                         [&](const json::value& v) { return v.is_string() && v.get_string() == hash; });
  if (it == list.end()) return unknown_recovery_code();
  list.erase(it);
  return {};
}

// Fresh recovery codes: the plaintexts to show once, and the hashes to store.
struct RecoveryCodes {
  json::array plaintext, hashes;
};
RecoveryCodes make_codes(App& app) {
  RecoveryCodes out;
  for (const auto& code : core::auth::make_recovery_codes(app.random, kRecoveryCodeCount)) {
    // make_recovery_codes writes the display form, which always normalizes.
    out.hashes.emplace_back(core::sha256_hex(core::auth::normalize_recovery_code(code).value()));
    out.plaintext.emplace_back(code);
  }
  return out;
}

// The otpauth label's issuer: the project's name without ':', which the Key Uri Format reserves as the
// issuer/account separator (its slug when nothing else remains).
std::string issuer_of(const Project& project) {
  std::string issuer = project.settings.name;
  std::erase(issuer, ':');
  return issuer.empty() ? project.slug() : issuer;
}

Response enroll(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.totp) return totp_method_off();
  auto call = user_call(app, req, project);
  if (auto* r = std::get_if<Response>(&call)) return std::move(*r);
  const EndUser& user = std::get<UserCall>(call).user;
  if (user.has_totp()) return envelope_error(409, "TOTP is already enabled; disable it first");

  const std::string secret = core::auth::base32_encode(core::auth::make_totp_secret(app.random));
  auto uri = core::auth::otpauth_uri(issuer_of(project), user.email, secret, kTotpParams);
  if (!uri) return envelope_error(500, "the enrolment URI cannot be written for this project or user");
  const std::string sealed =
      core::seal(app.secret_key, secret, totp_secret_binding(project.id, user.id), app.random);
  // A pending enrolment is replaced: only the newest secret can be confirmed.
  auto updated = update_user(app, project.id, user.id, [&](EndUser& u) -> core::Status {
    if (u.has_totp()) return core::make_error("conflict", "TOTP is already enabled; disable it first");
    u.mfa["totp"] = json::object{{"secret", sealed}, {"enabled", false}};
    return {};
  });
  if (!updated) return envelope_error(updated.error());
  return envelope_ok(json::object{{"secret", secret}, {"otpauthUri", *uri}});
}

Response confirm(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.totp) return totp_method_off();
  auto call = user_call(app, req, project);
  if (auto* r = std::get_if<Response>(&call)) return std::move(*r);
  const UserCall& c = std::get<UserCall>(call);
  auto code = core::require_string(c.body, "code");
  if (!code) return envelope_error(code.error());

  RecoveryCodes codes = make_codes(app);
  const std::int64_t now = now_s(app);
  auto updated = update_user(app, project.id, c.user.id, [&](EndUser& u) -> core::Status {
    if (u.has_totp()) return core::make_error("conflict", "TOTP is already enabled");
    json::object* totp = totp_member(u);
    if (!totp)
      return core::make_error("conflict", "no TOTP enrolment is pending; start with /mfa/totp/enroll");
    CORE_TRY(accept_totp_code(app, u, *totp, *code, now));
    (*totp)["enabled"] = true;
    u.mfa["recoveryCodes"] = codes.hashes;
    return {};
  });
  // Wrong or reused codes are 400 (status_for): the caller holds the secret, there is nothing to guess.
  if (!updated) return envelope_error(updated.error());
  return envelope_ok(json::object{{"enabled", true}, {"recoveryCodes", std::move(codes.plaintext)}});
}

// disable and recovery-codes: a change that needs a second factor on top of the access token, so a stolen
// access token alone cannot remove the factor. Wrong factors count against the account like login's.
Response with_second_factor(App& app, Request& req, const ProjectContext& ctx, bool recovery_allowed,
                            const std::function<void(EndUser&)>& change, json::object answer) {
  const Project& project = ctx.project;
  auto call = user_call(app, req, project);
  if (auto* r = std::get_if<Response>(&call)) return std::move(*r);
  const UserCall& c = std::get<UserCall>(call);
  auto factor = factor_of(c.body, recovery_allowed);
  if (auto* r = std::get_if<Response>(&factor)) return std::move(*r);

  const std::int64_t now_ms = app.clock.now_ms();
  Attempt attempt = failure_attempt(app, req, project, c.user.id);
  if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
  auto updated = update_user(app, project.id, c.user.id, [&](EndUser& u) -> core::Status {
    CORE_TRY(consume_factor(app, u, std::get<Factor>(factor), now_ms / 1000));
    change(u);
    return {};
  });
  if (!updated) {
    if (is_wrong_factor(updated.error())) attempt.failed();
    return envelope_error(updated.error());
  }
  attempt.succeeded();
  return envelope_ok(std::move(answer));
}

Response disable(App& app, Request& req, const ProjectContext& ctx) {
  // Allowed when the project has turned TOTP off: a user may always remove a factor they hold.
  return with_second_factor(app, req, ctx, true, remove_totp, json::object{{"enabled", false}});
}

Response regenerate_recovery_codes(App& app, Request& req, const ProjectContext& ctx) {
  if (!ctx.project.settings.sign_in_methods.totp) return totp_method_off();
  RecoveryCodes codes = make_codes(app);
  return with_second_factor(
      app, req, ctx, false, [&](EndUser& u) { u.mfa["recoveryCodes"] = codes.hashes; },
      json::object{{"recoveryCodes", codes.plaintext}});
}

Response login_mfa(App& app, Request& req, const ProjectContext& ctx) {
  const Project& project = ctx.project;
  if (!project.settings.sign_in_methods.totp) return totp_method_off();
  auto parsed = json_body(req);
  if (auto* r = std::get_if<Response>(&parsed)) return std::move(*r);
  const json::object& body = std::get<json::object>(parsed);
  auto ticket = core::require_string(body, "mfaTicket");
  if (!ticket) return envelope_error(ticket.error());
  auto factor = factor_of(body, true);
  if (auto* r = std::get_if<Response>(&factor)) return std::move(*r);

  // Tickets are looked up under their project: another project's ticket is unknown here.
  auto peeked = peek_login_ticket(app, project, *ticket);
  if (!peeked) return envelope_error(peeked.error());
  if (!*peeked) return ticket_refused();
  const std::string uid = (*peeked)->user_id;

  const std::int64_t now_ms = app.clock.now_ms();
  Attempt attempt = failure_attempt(app, req, project, uid);
  if (!attempt.allowed()) return envelope_rate_limited(attempt.retry_after_seconds());
  // The factor and the ticket are used in one transaction: of two concurrent steps with one ticket, one
  // signs in and the other changes nothing (a recovery code it sent stays unspent).
  auto user = update_user(app, project.id, uid, [&](store::WriteTxn& txn, EndUser& u) -> core::Status {
    if (u.disabled) return core::make_error("forbidden", "this account is disabled");
    CORE_TRY(consume_factor(app, u, std::get<Factor>(factor), now_ms / 1000));
    if (!use_login_ticket_in(txn, app.auth_table, project, *ticket, now_ms))
      return core::make_error("ticket_used", "the ticket was used meanwhile");
    return {};
  });
  if (!user) {
    const core::Error& e = user.error();
    if (is_wrong_factor(e)) {
      attempt.failed();
      if (auto st = fail_login_ticket(app, project, *ticket); !st.ok()) return envelope_error(st.error());
      return envelope_unauthorized(e.message);
    }
    // Deleted, or the factor was reset by an administrator since the first step.
    if (e.code == "not_found" || e.code == "conflict" || e.code == "ticket_used") return ticket_refused();
    return envelope_error(e);
  }
  attempt.succeeded();
  auto pair = start_session(app, project, *user, session_facts(app, req, "mfa"));
  if (!pair) return envelope_error(pair.error());
  return envelope_ok(signed_in_json(*user, *pair));
}

}  // namespace

void register_mfa_routes(App& app) {
  auto bind = [&app](Response (*fn)(App&, Request&, const ProjectContext&)) {
    return [&app, fn](Request& req, const ProjectContext& ctx) { return fn(app, req, ctx); };
  };
  add_project_route(app, "POST", "/mfa/totp/enroll", Access::project_key, bind(enroll));
  add_project_route(app, "POST", "/mfa/totp/confirm", Access::project_key, bind(confirm));
  add_project_route(app, "POST", "/mfa/totp/disable", Access::project_key, bind(disable));
  add_project_route(app, "POST", "/mfa/recovery-codes", Access::project_key, bind(regenerate_recovery_codes));
  add_project_route(app, "POST", "/login/mfa", Access::project_key, bind(login_mfa));
}

}  // namespace edge::auth_projects
