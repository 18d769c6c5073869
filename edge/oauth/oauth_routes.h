#pragma once
// The OAuth 2.0 / OpenID Connect provider of document 1, at {auth_url}.

namespace edge {
struct App;
}

namespace edge::oauth {

void register_authorize_routes(App& app);       // GET/POST /oauth/authorize
void register_token_routes(App& app);           // token, revoke, introspect, userinfo
void register_discovery_routes(App& app);       // discovery, JWKS, end-session
void register_connected_apps_routes(App& app);  // /{lang}/profile/connected-apps
void register_client_routes(App& app);          // /api/companies/{slug}/oauth-clients

inline void register_oauth_routes(App& app) {
  register_authorize_routes(app);
  register_token_routes(app);
  register_discovery_routes(app);
  register_connected_apps_routes(app);
  register_client_routes(app);
}

}  // namespace edge::oauth
