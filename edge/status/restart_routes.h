#pragma once
// The dashboard API of restart targets (docs/status-restart.md, "API"), under
// {status_url}/api/v1/dashboard/companies/{slug}/pages/{pageId}/restart-targets: create, list, read, patch,
// delete, the manual test fire of HTTP targets, and the firing history of a check and of a target.

namespace edge {
struct App;
}

namespace edge::status {

void register_restart_routes(App& app);

}  // namespace edge::status
