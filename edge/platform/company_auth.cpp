#include "edge/platform/company_auth.h"

#include "core/token.h"
#include "edge/app.h"
#include "edge/platform/envelope.h"
#include "edge/platform/server_failure.h"

namespace edge {

Response missing_permission(std::string_view permission) {
  return envelope_error(403, "access token lacks permission '" + std::string(permission) + "'");
}

std::optional<CompanyAuthFailure> authenticate_company(App& app, const Request& req, CompanyContext& out) {
  std::string_view auth = req.header("authorization");
  if (auth.empty()) return CompanyAuthFailure{401, "missing access token"};
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
  if (found->company.slug != req.param("slug")) return CompanyAuthFailure{404, "company not found"};
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
