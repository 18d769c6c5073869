// GET /orders/board/events?branchId=: the counter board live (docs/restaurant-orders.md, "Board events").
// The same checks as GET /orders/board, then a Server-Sent Events stream: a `snapshot` of the branch's open
// orders for its current business date, then an `order` event for every committed order write of that
// branch (announce_order in order_record.cpp). The event hub keeps the snapshot and the events in order.

#include "core/date.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/order_record.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"

namespace edge::restaurant {
namespace {

Response board_events(App& app, Request& req, const CompanyContext& ctx) {
  if (!req.query_param("branchId"))
    return rest_error(422, "missing_field", "query parameter 'branchId' is required");
  auto branch = branch_query(app, req, ctx);
  if (!branch) return rest_error(branch.error());
  auto today = current_business_date(app, **branch);
  if (!today) return rest_error(today.error());
  const std::string branch_id = record::str(**branch, "id");
  const std::string day = core::format_day_key(*today);

  Response r;
  r.events = app.events.subscribe(board_topic(ctx, branch_id), [&](EventStream& stream) {
    auto orders = open_orders(app, ctx, branch_id, day);
    if (!orders) {
      // The head is already promised as a stream: the failure goes out as an event the client can show.
      stream.send(
          core::to_json(json::object{{"error", orders.error().code}, {"message", orders.error().message}}),
          "error");
      stream.close();
      return;
    }
    json::array list;
    for (auto& order : *orders) list.emplace_back(std::move(order));
    stream.send(core::to_json(json::object{{"businessDate", day}, {"orders", std::move(list)}}), "snapshot");
  });
  return r;
}

}  // namespace

void register_board_events(App& app) {
  app.router.add("GET", path("/orders/board/events"),
                 restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
                   return board_events(app, req, ctx);
                 }));
}

}  // namespace edge::restaurant
