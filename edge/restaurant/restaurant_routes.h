#pragma once
// The restaurant API under /api/restaurant/companies/{slug} (docs/restaurant-api.md and the pages it links):
// registers the routes of every edge/restaurant/*_routes.cpp file.

namespace edge {
struct App;
void register_restaurant_routes(App& app);
}  // namespace edge
