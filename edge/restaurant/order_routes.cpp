// Orders (docs/restaurant-orders.md): create with client idempotency, read, the open-orders board and
// close. Lines and payments: order_item_routes.cpp. Storage layout: order_record.h.

#include <algorithm>

#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/order_record.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

constexpr std::size_t kMaxClientKeyBytes = 200;
constexpr std::size_t kMaxOrderItems = 200;

struct CreateRequest {
  std::string branchId;
  std::optional<std::string> tableId;
  std::string clientOrderId;
  std::vector<ItemRequest> items;
};

core::Result<CreateRequest> parse_create(const json::object& body) {
  CreateRequest out;
  auto table = core::optional_string(body, "tableId");
  if (!table) return table.error();
  out.tableId = *table;
  auto client = core::require_string(body, "clientOrderId");
  if (!client) return client.error();
  if (client->empty() || client->size() > kMaxClientKeyBytes)
    return core::make_error("invalid_field", "field 'clientOrderId' must be 1 to 200 bytes");
  out.clientOrderId = *client;
  auto* items = body.if_contains("items");
  if (items && !items->is_null()) {
    if (!items->is_array()) return core::make_error("invalid_field", "field 'items' must be an array");
    if (items->get_array().size() > kMaxOrderItems)
      return core::make_error("invalid_field", "field 'items' holds more than 200 items");
    for (auto& i : items->get_array()) {
      if (!i.is_object()) return core::make_error("invalid_field", "field 'items' must hold objects");
      auto item = parse_item(i.get_object());
      if (!item) return item.error();
      out.items.push_back(std::move(*item));
    }
  }
  return out;
}

// A create whose clientOrderId is already taken: the original order when the fingerprints match.
Response replay(App& app, const CompanyContext& ctx, const json::object& idem,
                const std::string& fingerprint) {
  if (record::str(idem, "fingerprint") != fingerprint)
    return rest_error(409, "idempotency_conflict",
                      "clientOrderId '" + record::str(idem, "clientOrderId") +
                          "' was already used with a different request body");
  auto order = get_record(app, order_key(ctx, record::str(idem, "orderId")));
  if (!order) return rest_error(order.error());
  if (!*order) return rest_error(500, "internal", "the order of this clientOrderId is missing");
  return rest_ok(std::move(**order), 200);
}

Response create_order(App& app, Request& req, const CompanyContext& ctx) {
  auto write = read_branch_write(app, req, ctx);
  if (!write) return rest_error(write.error());
  auto parsed = parse_create(write->body);
  if (!parsed) return rest_error(parsed.error());
  CreateRequest& in = *parsed;
  in.branchId = write->branchId;
  std::string fingerprint = create_fingerprint(in.branchId, in.tableId, in.items);
  std::string idem_key = order_idempotency_key(ctx, in.branchId, in.clientOrderId);

  // A retry answers before the menu is consulted: the product may have changed since the original.
  auto known = get_record(app, idem_key);
  if (!known) return rest_error(known.error());
  if (*known) return replay(app, ctx, **known, fingerprint);

  if (in.tableId) {
    auto table = is_key_segment(*in.tableId) ? get_record(app, company_key(ctx, "table", *in.tableId))
                                             : core::Result<std::optional<json::object>>(std::nullopt);
    if (!table) return rest_error(table.error());
    if (!*table || record::str(**table, "branchId") != in.branchId)
      return rest_error(404, "table_not_found", "table '" + *in.tableId + "' is not a table of this branch");
  }
  json::array lines;
  for (const ItemRequest& item : in.items) {
    auto line = make_line(app, ctx, item, core::make_id("ln_", app.random));
    if (!line) return rest_error(line.error());
    lines.emplace_back(std::move(*line));
  }
  auto day = current_business_date(app, write->branch);
  if (!day) return rest_error(day.error());
  std::string business_date = core::format_day_key(*day);
  std::string now = now_text(app);
  std::string order_id = core::make_id("ord_", app.random);
  json::object order{{"id", order_id},
                     {"number", 0},
                     {"branchId", in.branchId},
                     {"tableId", in.tableId ? json::value(*in.tableId) : json::value(nullptr)},
                     {"clientOrderId", in.clientOrderId},
                     {"businessDate", business_date},
                     {"status", "open"},
                     {"version", 1},
                     {"items", std::move(lines)},
                     {"payments", json::array()}};
  auto totals = refresh_totals(order);
  if (!totals) return rest_error(totals.error());
  order["createdAt"] = now;
  order["updatedAt"] = now;
  order["closedAt"] = nullptr;

  // Check-and-insert in one transaction: of parallel creates with one clientOrderId exactly one inserts;
  // the others find its idempotency record (they run after it, serialized by the writer).
  store::Table t = app.restaurant_table;
  std::string number_key = order_number_key(ctx, in.branchId, business_date);
  std::optional<json::object> existing;
  json::object stored;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    existing.reset();
    if (auto idem = txn.get(t, idem_key)) {
      auto rec = core::parse_json_object(*idem);
      if (!rec) return core::make_error("storage_error", "unreadable idempotency record");
      existing = std::move(*rec);
      return {};
    }
    std::int64_t last = 0;
    if (auto counter = txn.get(t, number_key))
      if (auto c = core::parse_json_object(*counter)) last = record::num(*c, "last");
    stored = order;
    stored["number"] = last + 1;
    txn.put(t, number_key, core::to_json(json::object{{"last", last + 1}}));
    txn.put(t, order_key(ctx, order_id), core::to_json(stored));
    txn.put(t, open_order_prefix(ctx, in.branchId, business_date) + order_id,
            core::to_json(json::object{{"orderId", order_id}, {"number", last + 1}, {"createdAt", now}}));
    txn.put(t, idem_key,
            core::to_json(json::object{
                {"clientOrderId", in.clientOrderId}, {"orderId", order_id}, {"fingerprint", fingerprint}}));
    return {};
  });
  if (!st.ok()) return rest_error(st.error());
  if (existing) return replay(app, ctx, *existing, fingerprint);
  announce_order(app, ctx, stored);
  return rest_ok(std::move(stored), 201);
}

Response board(App& app, Request& req, const CompanyContext& ctx) {
  if (!req.query_param("branchId"))
    return rest_error(422, "missing_field", "query parameter 'branchId' is required");
  auto branch = branch_query(app, req, ctx);
  if (!branch) return rest_error(branch.error());
  auto day = day_query(req, "businessDate");
  if (!day) return rest_error(day.error());
  if (!*day) {
    auto today = current_business_date(app, **branch);
    if (!today) return rest_error(today.error());
    *day = *today;
  }
  auto orders = open_orders(app, ctx, record::str(**branch, "id"), core::format_day_key(**day));
  if (!orders) return rest_error(orders.error());
  return paged(req, *orders);
}

Response close_order(App& app, Request& req, const CompanyContext& ctx) {
  auto order = load_order(app, ctx, req.param("id"));
  if (!order) return rest_error(order.error());
  std::string branch_id = record::str(*order, "branchId");
  if (!may_write_branch(ctx, branch_id)) return rest_forbidden_branch(branch_id);
  std::string now = now_text(app);
  store::Table t = app.restaurant_table;
  json::object current;
  auto st = change_order(
      app, order_key(ctx, record::str(*order, "id")),
      [&](json::object& o, store::WriteTxn& txn) -> core::Status {
        CORE_TRY(check_open(o));
        auto balance = refresh_totals(o);
        if (!balance) return balance.error();
        CORE_TRY(core::restaurant::check_can_close(*balance));
        o["status"] = "closed";
        o["closedAt"] = now;
        o["updatedAt"] = now;
        o["version"] = record::num(o, "version") + 1;
        txn.erase(t, open_order_prefix(ctx, record::str(o, "branchId"), record::str(o, "businessDate")) +
                         record::str(o, "id"));
        return {};
      },
      current);
  if (!st.ok()) return order_write_error(st.error(), current);
  announce_order(app, ctx, current);
  return rest_ok(std::move(current));
}

}  // namespace

void register_orders(App& app) {
  Router& r = app.router;
  r.add("POST", path("/orders"), restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
          return create_order(app, req, ctx);
        }));
  // Registered before /orders/{id} so the literal segment wins however the router orders matches.
  r.add("GET", path("/orders/board"),
        restaurant_route(app, "restaurant.view",
                         [&app](Request& req, const CompanyContext& ctx) { return board(app, req, ctx); }));
  register_board_events(app);
  r.add("GET", path("/orders/{id}"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto order = load_order(app, ctx, req.param("id"));
          if (!order) return rest_error(order.error());
          return rest_ok(std::move(*order));
        }));
  r.add("POST", path("/orders/{id}/close"),
        restaurant_route(
            app, "", [&app](Request& req, const CompanyContext& ctx) { return close_order(app, req, ctx); }));
  register_order_items(app);
  register_order_payments(app);
}

}  // namespace edge::restaurant
