#pragma once
// The public side beyond the JSON snapshot (docs/status-public.md): the page GET /p/{slug}, its embed
// /p/{slug}/embed, its Atom feed /p/{slug}/feed.atom, the live stream GET /api/v1/status/{slug}/events, and
// the custom domains registered at start.

namespace edge {
struct App;
}

namespace edge::status {
void register_public_page_routes(App& app);
}  // namespace edge::status
