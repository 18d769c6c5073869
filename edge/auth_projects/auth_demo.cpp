#include "edge/auth_projects/auth_demo.h"

#include "core/json.h"
#include "edge/app.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/project_store.h"

namespace edge::auth_projects {

core::Result<AuthDemo> seed_auth_demo(App& app, const std::string& company_id) {
  AuthDemo demo{"demo-app", "", "ada@demo-app.test", "demo-password"};
  auto body = core::parse_json_object(R"({"name":"Demo app","slug":"demo-app",)"
                                      R"("allowedRedirectUrls":["http://localhost:3000/auth/callback"],)"
                                      R"("signInMethods":{"password":true,"totp":true}})");
  if (!body) return body.error();
  auto project = create_project(app, company_id, *body);
  if (!project) return project.error();
  auto key = create_key(app, *project, "demo backend", demo.key);
  if (!key) return key.error();
  auto user = create_user(app, *project, demo.user_email, demo.user_password, "Ada Lovelace", true);
  if (!user) return user.error();
  return demo;
}

}  // namespace edge::auth_projects
