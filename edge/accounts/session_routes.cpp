#include "edge/accounts/session_routes.h"

#include <algorithm>

#include "edge/accounts/session_cookie.h"
#include "edge/app.h"
#include "edge/platform/envelope.h"

namespace edge {

void register_session_routes(App& app) {
  // The dashboard's first call. The CSRF token is the one a signed-in write must send in X-CSRF-Token
  // (edge/platform/company_auth.h); another site's page cannot read this answer (no CORS), so it cannot
  // learn the token. Never cached: it names the user and carries the token.
  app.router.add("GET", "/api/session", [&app](Request& req) {
    auto who = signed_in(app, req);
    if (!who) {
      Response r = envelope_error(401, "not signed in");
      r.set_header("Cache-Control", "no-store");
      return r;
    }
    auto companies = app.accounts->companies_of(who->user.id);
    if (!companies) return envelope_error(companies.error());
    std::sort(companies->begin(), companies->end(), [](const auto& a, const auto& b) {
      return a.first.name != b.first.name ? a.first.name < b.first.name : a.first.slug < b.first.slug;
    });
    core::json::array list;
    for (const auto& [company, membership] : *companies) {
      core::json::array permissions;
      for (const auto& p : membership.permissions) permissions.emplace_back(p);
      list.emplace_back(core::json::object{{"slug", company.slug},
                                           {"name", company.name},
                                           {"role", core::role_name(membership.role)},
                                           {"permissions", std::move(permissions)}});
    }
    Response r = envelope_ok(core::json::object{
        {"user",
         core::json::object{{"id", who->user.id}, {"email", who->user.email}, {"name", who->user.name}}},
        {"csrfToken", who->session.csrf_token},
        {"companies", std::move(list)}});
    r.set_header("Cache-Control", "no-store");
    return r;
  });
}

}  // namespace edge
