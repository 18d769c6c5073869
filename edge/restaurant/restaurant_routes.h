#pragma once
// The restaurant API under /api/restaurant/companies/{slug} (docs/restaurant-api.md): branches,
// categories, vendors, tables and daily income.

namespace edge {
struct App;
void register_restaurant_routes(App& app);
}  // namespace edge
