#pragma once
// The subscribers' routes (docs/status-subscribers.md): the public subscribe endpoint and the dashboard's
// subscriber list, delete and delivery log (subscriber_routes.cpp), and the subscriber's pages
// /p/{slug}/confirm, /p/{slug}/preferences and /p/{slug}/unsubscribe (subscriber_pages.cpp).

namespace edge {
struct App;
}

namespace edge::status {

void register_subscriber_routes(App& app);
void register_subscriber_pages(App& app);

}  // namespace edge::status
