// Registers every restaurant route file (edge/restaurant/*_routes.cpp).

#include "edge/restaurant/restaurant_routes.h"

#include "edge/restaurant/restaurant_common.h"

namespace edge {

void register_restaurant_routes(App& app) {
  using namespace restaurant;
  register_branches(app);
  register_catalog(app);
  register_income(app);
  register_expenses(app);
  register_payables(app);
  register_products(app);
  register_option_groups(app);
  register_orders(app);
  register_shifts(app);
  register_reports(app);
  register_overview(app);
}

}  // namespace edge
