#pragma once
// Cookies of the browser sign-in. The session cookie is HttpOnly, SameSite=Lax, shared across subdomains
// through the configured cookie domain, and Secure when the platform is served over https.

#include <optional>
#include <string>

#include "edge/accounts/accounts.h"
#include "edge/accounts/sessions.h"
#include "edge/http/message.h"

namespace edge {

struct App;

std::string session_cookie(const App& app, std::string_view value, std::int64_t max_age_seconds);
std::string expired_session_cookie(const App& app);

struct SignedIn {
  Session session;
  User user;
};
// The signed-in user of a browser request, if its session cookie is live.
std::optional<SignedIn> signed_in(App& app, const Request& req);

}  // namespace edge
