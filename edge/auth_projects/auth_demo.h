#pragma once
// Auth-project demo data for `scripts/start.sh`: the project `demo-app` of the demo company with password
// sign-in and TOTP on, an `aps_` key (its plaintext kept with the other demo credentials) and one end user,
// so the dashboard's pages and the end-user API have something to show and to call.

#include <string>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

struct AuthDemo {
  std::string project_slug, key, user_email, user_password;
};

core::Result<AuthDemo> seed_auth_demo(App& app, const std::string& company_id);

}  // namespace edge::auth_projects
