#pragma once

namespace edge {
struct App;
// GET /api/session: who the browser is signed in as, the session's CSRF token and the user's companies, for
// the dashboard pages (docs/dashboard.md).
void register_session_routes(App& app);
}  // namespace edge
