#pragma once
// prompt=login round trips (OpenID Connect Core §3.1.2.1), kept server-side. Authorize with prompt=login
// starts a login request holding the time the new sign-in must not precede, and sends the browser to the
// sign-in page with only the request's random id in the return URL (`login_request`). Back at authorize, a
// session older than that time is sent to sign in again; an unknown or expired id counts as a new
// prompt=login (a fresh request, stamped now). So the time comes only from the server: nobody can send a
// browser into an endless sign-in loop by putting a future time in a link. Records live 10 minutes (the
// sign-in they wait for), with an expiry index entry for the sweep. Stored as the SHA-256 of the id.

#include <cstdint>
#include <optional>
#include <string>

#include "core/clock.h"
#include "core/random.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge::oauth {

class LoginRequests {
 public:
  static constexpr std::int64_t kLifetimeMs = 10 * 60 * 1000;

  LoginRequests(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random);

  // Starts a request stamped now; returns its id for the return URL.
  core::Result<std::string> start_login_request();
  // The time (epoch ms) the sign-in of request `id` must not precede; nullopt for an unknown or expired id.
  core::Result<std::optional<std::int64_t>> login_not_before(std::string_view id);

 protected:
  void erase_login_request_in(store::WriteTxn& tx, std::string_view hash);

 private:
  store::KvStore& kv_;
  store::Table table_;
  core::Clock& clock_;
  core::RandomSource& random_;
};

}  // namespace edge::oauth
