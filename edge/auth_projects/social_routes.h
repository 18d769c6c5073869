#pragma once
// The two halves of social sign-in's routes (docs/auth-social.md), sharing one SocialOidc; both are
// registered by register_social_routes (auth_routes.h).

#include <memory>

namespace edge {
struct App;
}

namespace edge::auth_projects {

class SocialOidc;

// The dashboard's provider CRUD under /api/companies/{slug}/auth-projects/{projectId}/providers.
void register_social_provider_routes(App& app, std::shared_ptr<SocialOidc> oidc);
// The end-user API under /api/v1/auth/{project}/social/...
void register_social_end_user_routes(App& app, std::shared_ptr<SocialOidc> oidc);

}  // namespace edge::auth_projects
