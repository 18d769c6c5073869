#include "edge/platform/company_auth.h"

#include "core/crypto.h"
#include "core/token.h"
#include "edge/accounts/session_cookie.h"
#include "edge/app.h"
#include "edge/platform/envelope.h"
#include "edge/platform/server_failure.h"

namespace edge {

Response missing_permission(std::string_view permission) {
  return envelope_error(403, "access token lacks permission '" + std::string(permission) + "'");
}

namespace {

bool unsafe_method(std::string_view method) {
  return method != "GET" && method != "HEAD" && method != "OPTIONS";
}

// The dashboard's way in: the platform session cookie of a member of the slug's company. A write must
// also carry the session's CSRF token in `X-CSRF-Token`: a cookie rides along on any cross-site request, a
// header only on this site's own scripts.
std::optional<CompanyAuthFailure> authenticate_session(App& app, const Request& req, CompanyContext& out) {
  auto who = signed_in(app, req);
  if (!who) return CompanyAuthFailure{401, "missing access token"};
  if (unsafe_method(req.method) &&
      !core::constant_time_equal(who->session.csrf_token, req.header("x-csrf-token")))
    return CompanyAuthFailure{403, "missing or wrong X-CSRF-Token header for a signed-in write"};
  std::string_view slug = req.param("slug");
  if (slug.empty()) return CompanyAuthFailure{401, "missing access token"};
  auto company = app.accounts->company_by_slug(slug);
  if (!company) {
    if (company.error().code == "storage_error")
      return CompanyAuthFailure{500, server_failure_message(company.error())};
    return CompanyAuthFailure{404, "company not found"};
  }
  auto membership = app.accounts->membership(company->id, who->user.id);
  if (!membership) {
    if (membership.error().code == "storage_error")
      return CompanyAuthFailure{500, server_failure_message(membership.error())};
    return CompanyAuthFailure{404, "company not found"};
  }
  auto decision = app.api_limiter.take("user:" + who->user.id, app.clock.now_ms());
  if (!decision.allowed) return CompanyAuthFailure{429, "rate limit exceeded", decision.retry_after_seconds};
  out = CompanyContext{std::move(*company), Principal{Principal::Kind::user, who->user.id, membership->role,
                                                      std::move(membership->permissions)}};
  return std::nullopt;
}

}  // namespace

std::optional<CompanyAuthFailure> authenticate_company(App& app, const Request& req, CompanyContext& out) {
  std::string_view auth = req.header("authorization");
  if (auth.empty()) {
    if (!req.cookie(Sessions::kCookieName).empty()) return authenticate_session(app, req, out);
    return CompanyAuthFailure{401, "missing access token"};
  }
  constexpr std::string_view kBearer = "Bearer ";
  if (auth.size() <= kBearer.size() || auth.substr(0, kBearer.size()) != kBearer)
    return CompanyAuthFailure{401, "malformed Authorization header; expected 'Bearer stk_...'"};
  std::string_view plaintext = auth.substr(kBearer.size());
  if (!core::has_token_shape(core::TokenKind::access_token, plaintext))
    return CompanyAuthFailure{401, "malformed access token"};
  auto found = app.accounts->authenticate_token(plaintext);
  if (!found) {
    if (found.error().code == "storage_error")
      return CompanyAuthFailure{500, server_failure_message(found.error())};
    return CompanyAuthFailure{401, found.error().message};
  }
  AccessToken& token = found->token;
  // Routes without a slug (the mail product's `/api/mail/...` form) act on the token's own company.
  if (req.params.contains("slug") && found->company.slug != req.param("slug"))
    return CompanyAuthFailure{404, "company not found"};
  std::int64_t now = app.clock.now_ms();
  auto decision = app.api_limiter.take(token.id, now);
  if (!decision.allowed) return CompanyAuthFailure{429, "rate limit exceeded", decision.retry_after_seconds};
  app.token_usage.note(token, now);
  out = CompanyContext{
      std::move(found->company),
      Principal{Principal::Kind::token, token.id, core::Role::member, std::move(token.permissions)}};
  return std::nullopt;
}

Handler company_route(App& app, std::string permission, CompanyHandler handler, std::string target_param) {
  return [&app, permission = std::move(permission), handler = std::move(handler),
          target_param = std::move(target_param)](Request& req) -> Response {
    CompanyContext ctx;
    if (auto failure = authenticate_company(app, req, ctx)) {
      if (failure->status == 401) return envelope_unauthorized(failure->message);
      if (failure->status == 429) return envelope_rate_limited(failure->retry_after_seconds);
      return envelope_error(failure->status, failure->message);
    }
    if (!permission.empty()) {
      std::string_view target = target_param.empty() ? std::string_view() : req.param(target_param);
      if (!ctx.principal.allows(permission, target)) return missing_permission(permission);
    }
    return handler(req, ctx);
  };
}

}  // namespace edge
