#include "core/auth/access_token.h"

#include "core/jwt.h"
#include "core/rsa_verify.h"

namespace core::auth {

std::string project_issuer(std::string_view auth_url, std::string_view project_slug) {
  std::string base(auth_url);
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/api/v1/auth/" + std::string(project_slug);
}

json::object access_token_claims(const AccessTokenFacts& f) {
  json::object claims{
      {"iss", f.issuer}, {"sub", f.user_id},    {"aud", f.project_id}, {"exp", f.now_s + f.ttl_s},
      {"iat", f.now_s},  {"sid", f.session_id}, {"email", f.email},    {"email_verified", f.email_verified}};
  if (!f.amr.empty()) claims["amr"] = json::array{json::value(f.amr)};
  return claims;
}

Result<VerifiedAccessToken> verify_access_token(std::string_view compact, std::span<const RsaPublicKey> keys,
                                                std::string_view issuer, std::string_view project_id,
                                                std::int64_t now_s, std::int64_t leeway_s) {
  auto jwt = verify_rs256(compact, keys);
  if (!jwt) return jwt.error();
  ClaimChecks checks;
  checks.issuer = std::string(issuer);
  checks.audience = std::string(project_id);
  checks.now_s = now_s;
  checks.leeway_s = leeway_s;
  CORE_TRY(check_claims(*jwt, checks));
  const auto* sub = jwt->claims.if_contains("sub");
  const auto* sid = jwt->claims.if_contains("sid");
  if (!sub || !sub->is_string() || sub->get_string().empty() || !sid || !sid->is_string() ||
      sid->get_string().empty())
    return make_error("invalid_claims", "the access token lacks 'sub' or 'sid'");
  VerifiedAccessToken out;
  out.user_id = std::string(sub->get_string());
  out.session_id = std::string(sid->get_string());
  auto number = [&](const char* name) -> std::int64_t {
    const auto* v = jwt->claims.if_contains(name);
    if (!v) return 0;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
    if (v->is_double()) return static_cast<std::int64_t>(v->get_double());
    return 0;
  };
  out.expires_at_s = number("exp");
  out.issued_at_s = number("iat");
  out.claims = std::move(jwt->claims);
  return out;
}

}  // namespace core::auth
