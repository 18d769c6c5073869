#pragma once
// Registration of the auth product's routes: the end-user API under /api/v1/auth/{project} and the
// dashboard API under /api/companies/{slug}/auth-projects.

namespace edge {
struct App;
}

namespace edge::auth_projects {

void register_end_user_routes(App& app);
void register_project_routes(App& app);
// TOTP second factors (mfa_routes.cpp): /mfa/totp/{enroll,confirm,disable}, /mfa/recovery-codes and the
// second login step /login/mfa.
void register_mfa_routes(App& app);
// Social sign-in: the providers of a project (dashboard) and /social/... (end users); social_routes.cpp.
void register_social_routes(App& app);
// The passkey ceremonies and the user's passkeys under /api/v1/auth/{project}/passkeys (passkey_routes.cpp).
void register_passkey_routes(App& app);

}  // namespace edge::auth_projects
