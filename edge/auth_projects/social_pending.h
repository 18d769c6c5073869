#pragma once
// Social sign-ins between /social/{providerId}/start and /social/callback (docs/auth-social.md):
//
//   p/<pid>/sst/<sha256(state)>                   providerId, redirectUri, nonce (sealed), codeVerifier
//                                                 (sealed), expiresAt
//   p/<pid>/sst-exp/<expiresAt, 15 digits>/<sha256(state)>  -> "": expiry order, so each start clears a few
//                                                 abandoned sign-ins
//
// The state is the callback's credential: only its hash is stored, under the project, so a state of one
// project is unknown to every other. Nonce and code verifier must be read back for the code exchange and
// the id_token check, so they are sealed (core/sealed.h), bound to the record's key.

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

struct Project;

inline constexpr std::int64_t kSocialStateLifetimeS = 600;

struct PendingSignIn {
  std::string provider_id, redirect_uri, nonce, code_verifier;
};

// Stores a started sign-in for kSocialStateLifetimeS, and removes a few expired ones. Errors: `not_found`
// (the project is gone), `storage_error`.
core::Status save_pending_sign_in(App& app, const Project& project, std::string_view state,
                                  const PendingSignIn& pending);

// Takes the sign-in of `state` out of the store: each state is answered once. nullopt when it is unknown,
// expired or already taken. Errors: `sealed_invalid` (the deployment's secret key changed), `storage_error`.
core::Result<std::optional<PendingSignIn>> take_pending_sign_in(App& app, const Project& project,
                                                                std::string_view state);

}  // namespace edge::auth_projects
