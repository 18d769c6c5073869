#pragma once
// Browser sessions of platform users. The cookie carries a `ses_` token; the store keeps only its SHA-256
// hash, the user, the expiry and the session's CSRF token for forms.

#include <cstdint>
#include <string>

#include "core/clock.h"
#include "core/random.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {

struct Session {
  std::string user_id;
  std::string csrf_token;
  std::int64_t created_at = 0, expires_at = 0;
};

class Sessions {
 public:
  static constexpr std::int64_t kLifetimeMs = 30LL * 24 * 3600 * 1000;
  static constexpr const char* kCookieName = "platform_session";

  Sessions(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random);

  // Starts a session; returns the cookie value (shown nowhere else).
  core::Result<std::string> start(std::string_view user_id);
  // The live session for a cookie value; `not_found` when unknown or expired.
  core::Result<Session> find(std::string_view cookie_value);
  // Ends the session (idempotent).
  core::Status end(std::string_view cookie_value);

 private:
  store::KvStore& kv_;
  store::Table table_;
  core::Clock& clock_;
  core::RandomSource& random_;
};

}  // namespace edge
