#pragma once
// TOTP second factors of auth-project end users (docs/auth-mfa.md). The routes are registered by
// register_mfa_routes (auth_routes.h); what other parts of the product need of the stored form is here.
//
// The user record's `mfa` member (end_users.h):
//   totp           {secret, enabled, lastStep}: `secret` is the base32 secret sealed under the deployment's
//                  key (core/sealed.h) and bound to the user's record (totp_secret_binding); `enabled` is
//                  false while an enrolment waits for its first code; `lastStep` is the last TOTP step
//                  accepted, refused ever after (core/auth/totp.h)
//   recoveryCodes  sha256 hex of the normalized unused recovery codes (core/auth/recovery_code.h)

#include <string>
#include <string_view>

namespace edge::auth_projects {

struct EndUser;

// The associated data the TOTP secret is sealed with: the user's record key and the member, so a sealed
// secret copied to another user (or another member) does not open there.
std::string totp_secret_binding(std::string_view pid, std::string_view uid);

// Removes the user's TOTP factor (pending or enabled) and recovery codes: after it, login asks for the
// first factor only, and the user may enroll again.
void remove_totp(EndUser& user);

}  // namespace edge::auth_projects
