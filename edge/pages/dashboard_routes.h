#pragma once

namespace edge {
struct App;
// The dashboard's pretty URLs (/dashboard/{slug}/{product}/{page}[/{id}]): each answers the one static shell
// page web/dashboard/index.html, whose modules read the path and call the JSON APIs (docs/dashboard.md).
// Also /web/vendor/mjml-browser.js, the MJML compiler of the template editor, from the npm package.
// Registered before the static routes, whose /web/{file*} would take that path otherwise.
void register_dashboard_routes(App& app);
}  // namespace edge
