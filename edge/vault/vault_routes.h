#pragma once
// The env vault's routes (docs/env-vault.md):
//   management, company-scoped (access token or dashboard session; permissions env-vault.view and
//   env-vault.manage, owners and admins bypass): /api/companies/{slug}/env-vault/...   (vault_routes.cpp)
//   the token API, no company in the path (Authorization: Bearer stk_env_...): /api/env-vault/push,
//   fetch, public, changes (vault_token_routes.cpp)

namespace edge {
struct App;
}

namespace edge::vault {

void register_management_routes(App& app);
void register_token_routes(App& app);

// Both of the above.
void register_vault_routes(App& app);

}  // namespace edge::vault
