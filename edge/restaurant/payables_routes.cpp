#include "edge/app.h"
#include "edge/restaurant/restaurant_common.h"

namespace edge::restaurant {

void register_payables(App&) {}

}  // namespace edge::restaurant
