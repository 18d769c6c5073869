#include "edge/demo.h"

#include "edge/auth_projects/auth_demo.h"
#include "edge/mail/mail_demo.h"
#include "edge/restaurant/restaurant_demo.h"
#include "edge/status/status_demo.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace edge {
namespace json = core::json;

namespace {

const std::vector<std::string> kAllPermissions = {
    "domains.manage",       "mailboxes.manage",  "templates.manage", "inbox.view",
    "audience.manage",      "send.execute",      "logs.view",        "webhooks.manage",
    "suppressions.manage",  "api-keys.manage",   "smtp.manage",      "members.manage",
    "storage.view",         "buckets.create",    "buckets.edit",     "buckets.delete",
    "media.upload",         "media.delete",      "media.reorder",    "oauth-clients.manage",
    "auth-projects.manage", "restaurant.manage", "status.manage"};

}  // namespace

core::Result<DemoCredentials> seed_demo(App& app) {
  std::string path = app.config.data_dir + "/demo-credentials.json";
  if (std::ifstream in(path); in) {
    std::stringstream buf;
    buf << in.rdbuf();
    auto o = core::parse_json_object(buf.str());
    if (!o)
      return core::make_error("storage_error", path + " is unreadable; remove it and the data directory");
    DemoCredentials d;
    d.company_slug = *core::require_string(*o, "company");
    d.email = *core::require_string(*o, "email");
    d.password = *core::require_string(*o, "password");
    d.access_token = *core::require_string(*o, "accessToken");
    // Data directories seeded before the auth demo existed have none.
    d.auth_project = core::optional_string(*o, "authProject")->value_or("");
    d.auth_project_key = core::optional_string(*o, "authProjectKey")->value_or("");
    d.auth_user_email = core::optional_string(*o, "authUserEmail")->value_or("");
    d.auth_user_password = core::optional_string(*o, "authUserPassword")->value_or("");
    return d;
  }
  DemoCredentials d;
  d.company_slug = "demo";
  d.email = "owner@demo.test";
  d.password = "demo-password";
  auto company = app.accounts->create_company(d.company_slug, "Demo Bistro");
  if (!company) return company.error();
  auto user = app.accounts->create_user(d.email, "Demo Owner", d.password);
  if (!user) return user.error();
  auto member = app.accounts->add_member(*company, d.email, core::Role::owner, {}, nullptr);
  if (!member) return member.error();
  auto token = app.accounts->create_token(*company, "demo", kAllPermissions, nullptr);
  if (!token) return token.error();
  d.access_token = token->plaintext;
  auto restaurant = restaurant::seed_restaurant_demo(app, d.company_slug, d.access_token);
  if (!restaurant.ok()) return restaurant.error();
  if (auto mail = mail::seed_mail_demo(app, company->id); !mail.ok()) return mail.error();
  if (auto st = status::seed_status_demo(app, d.company_slug, d.access_token); !st.ok()) return st.error();
  auto auth = auth_projects::seed_auth_demo(app, company->id);
  if (!auth) return auth.error();
  d.auth_project = auth->project_slug;
  d.auth_project_key = auth->key;
  d.auth_user_email = auth->user_email;
  d.auth_user_password = auth->user_password;
  {
    std::ofstream out(path, std::ios::trunc);
    out << json::serialize(json::object{{"company", d.company_slug},
                                        {"email", d.email},
                                        {"password", d.password},
                                        {"accessToken", d.access_token},
                                        {"authProject", d.auth_project},
                                        {"authProjectKey", d.auth_project_key},
                                        {"authUserEmail", d.auth_user_email},
                                        {"authUserPassword", d.auth_user_password}});
    if (!out) return core::make_error("storage_error", "cannot write " + path);
  }
  ::chmod(path.c_str(), 0600);
  return d;
}

}  // namespace edge
