#include "edge/accounts/session_cookie.h"

#include "edge/app.h"

namespace edge {
namespace {

std::string attributes(const App& app, std::int64_t max_age_seconds) {
  std::string a = "; Path=/; HttpOnly; SameSite=Lax; Max-Age=" + std::to_string(max_age_seconds);
  if (!app.config.cookie_domain.empty()) a += "; Domain=" + app.config.cookie_domain;
  if (app.config.base_url.rfind("https://", 0) == 0) a += "; Secure";
  return a;
}

}  // namespace

std::string session_cookie(const App& app, std::string_view value, std::int64_t max_age_seconds) {
  return std::string(Sessions::kCookieName) + "=" + std::string(value) + attributes(app, max_age_seconds);
}

std::string expired_session_cookie(const App& app) {
  return std::string(Sessions::kCookieName) + "=" + attributes(app, 0);
}

std::optional<SignedIn> signed_in(App& app, const Request& req) {
  std::string value = req.cookie(Sessions::kCookieName);
  if (value.empty()) return std::nullopt;
  auto session = app.sessions->find(value);
  if (!session) return std::nullopt;
  auto user = app.accounts->user_by_id(session->user_id);
  if (!user) return std::nullopt;
  return SignedIn{std::move(*session), std::move(*user)};
}

}  // namespace edge
