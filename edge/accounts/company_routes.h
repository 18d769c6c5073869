#pragma once

namespace edge {
struct App;
// GET /api/companies/{slug}; members (members.manage) and access tokens (api-keys.manage) under it.
void register_company_routes(App& app);
}  // namespace edge
