#pragma once

namespace edge {
struct App;
// GET /healthz, and the browser assets: web/ at /web/, the wasm build at /web/wasm/, bindings/ at
// /web/bindings/ (folders from the configuration).
void register_static_routes(App& app);
}  // namespace edge
