#pragma once
// Registration of the auth product's routes: the end-user API under /api/v1/auth/{project} and the
// dashboard API under /api/companies/{slug}/auth-projects.

namespace edge {
struct App;
}

namespace edge::auth_projects {

void register_end_user_routes(App& app);
void register_project_routes(App& app);
// The passkey ceremonies and the user's passkeys under /api/v1/auth/{project}/passkeys (passkey_routes.cpp).
void register_passkey_routes(App& app);

}  // namespace edge::auth_projects
