#pragma once
// Demo data for `scripts/start.sh`: a company, its owner and an access token with every permission.

#include <string>

#include "edge/app.h"

namespace edge {

struct DemoCredentials {
  std::string company_slug, email, password, access_token;
  // The auth project `demo-app`: its key and end user.
  std::string auth_project, auth_project_key, auth_user_email, auth_user_password;
};

// Creates the demo records when the data directory has none; otherwise reads back the credentials saved
// at creation (`demo-credentials.json` in the data directory, mode 0600: the token's plaintext is not
// kept anywhere else). Demo data is for local trials only.
core::Result<DemoCredentials> seed_demo(App& app);

}  // namespace edge
