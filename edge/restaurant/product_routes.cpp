#include "edge/app.h"
#include "edge/restaurant/restaurant_common.h"

namespace edge::restaurant {

void register_products(App&) {}

}  // namespace edge::restaurant
