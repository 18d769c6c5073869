#pragma once
// WebAuthn ceremonies in flight (docs/auth-passkeys.md): the challenge the options carried, remembered
// under the project for five minutes and for one verification. A registration ceremony is bound to the
// signed-in user and session that asked for it.
//
//   p/<pid>/pkc/<sha256 hex of the ceremony id>      {kind, challenge, userId, sessionId, expiresAt}
//   p/<pid>/pkcx/<expiresAt, 16 digits>/<sha256 hex> -> "" (expiry order: issuing sweeps expired ones)
//
// The ceremony id (`pkc_` + 43 base64url) is stored only hashed, like the project's tokens: whoever reads
// the store sees challenges but cannot present them. Challenges are 32 random bytes (WebAuthn Level 2
// §13.4.3 asks for at least 16).

#include <cstdint>
#include <optional>
#include <string>

#include "core/bytes.h"
#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

struct Project;

inline constexpr std::int64_t kCeremonyLifetimeMs = 5 * 60'000;
inline constexpr std::size_t kChallengeBytes = 32;

enum class CeremonyKind { registration, authentication };

struct Ceremony {
  CeremonyKind kind = CeremonyKind::authentication;
  core::Bytes challenge;
  std::string user_id, session_id;  // registration only
  std::int64_t expires_at = 0;
};

struct IssuedCeremony {
  std::string id;
  Ceremony ceremony;
};

// Makes a challenge and remembers the ceremony (a new one each call; an expired one is never reused).
// Also removes a bounded number of the project's expired ceremonies. Errors: `storage_error`.
core::Result<IssuedCeremony> issue_ceremony(App& app, const Project& project, CeremonyKind kind,
                                            std::string user_id = {}, std::string session_id = {});

// Takes the ceremony out of the store (it is single-use whatever happens next) and answers it while it was
// live and of `kind`; nullopt when the id is unknown in this project, expired, already used, or of the
// other kind. Errors: `storage_error`.
core::Result<std::optional<Ceremony>> take_ceremony(App& app, const Project& project,
                                                    std::string_view ceremony_id, CeremonyKind kind);

}  // namespace edge::auth_projects
