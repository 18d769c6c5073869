#pragma once
// Order records and their storage layout (docs/restaurant-orders.md), shared by the order route files.
//
// Keys in the `restaurant` table (all written in the same write transaction as the order they belong to):
//   c/<companyId>/order/<orderId>                                   the order, exactly as the API shows it
//   c/<companyId>/orderopen/<branchId>/<businessDate>/<orderId>     present while the order is open
//   c/<companyId>/ordernum/<branchId>/<businessDate>                {"last": n}: the last number given out
//   c/<companyId>/orderidem/<branchId>/<sha256hex(clientOrderId)>   {clientOrderId, orderId, fingerprint}
//   c/<companyId>/orderpay/<branchId>/<businessDate>/<orderId>/<paymentId>   payment ledger entry

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/restaurant/order.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/platform/company_auth.h"
#include "native/store/kv_store.h"

namespace edge::restaurant {

namespace json = core::json;

std::string order_key(const CompanyContext& ctx, std::string_view order_id);
std::string open_order_prefix(const CompanyContext& ctx, std::string_view branch_id, std::string_view day);
std::string order_number_key(const CompanyContext& ctx, std::string_view branch_id, std::string_view day);
// Scoped by branch: a clientOrderId is unique per branch, so a branch's client can neither replay nor detect
// (by a 409) an id another branch used.
std::string order_idempotency_key(const CompanyContext& ctx, std::string_view branch_id,
                                  std::string_view client_order_id);
std::string order_payment_key(const CompanyContext& ctx, std::string_view branch_id, std::string_view day,
                              std::string_view order_id, std::string_view payment_id);

// One requested item (`items[]` of POST /orders, the body of POST /orders/{id}/items).
struct ItemRequest {
  std::string productId;
  std::int64_t quantity = 0;
  std::vector<std::string> options;  // option ids
};

// The types of an item's members: `missing_field`, `invalid_field`; a non-integer quantity is
// `invalid_quantity`. Ranges are checked when the item is priced.
core::Result<ItemRequest> parse_item(const json::object& item);

// Prices the item from the current menu into a line record `{lineId, productId, name, unitPriceMinor,
// quantity, vatRateBps, options}` (totals are added by refresh_totals). Errors: `product_not_found`,
// `product_inactive`, `option_not_available`, `invalid_option_count`, `invalid_quantity`, `invalid_amount`.
core::Result<json::object> make_line(App& app, const CompanyContext& ctx, const ItemRequest& item,
                                     std::string line_id);

// The canonical fingerprint of a create request: sha256 hex of the normalized body (branchId, tableId,
// items with option ids sorted). Two bodies with the same fingerprint create the same order.
std::string create_fingerprint(std::string_view branch_id, const std::optional<std::string>& table_id,
                               const std::vector<ItemRequest>& items);

// Recomputes the derived members (each line's grossMinor/netMinor/vatMinor, the order's grossMinor,
// netMinor, vatMinor, paidMinor, dueMinor) from `lines` and `payments` with core::restaurant rules.
// Errors: as core::restaurant::order_balance (an order total beyond the accepted range).
core::Result<core::restaurant::OrderBalance> refresh_totals(json::object& order);

// The stored order `order_id` of the caller's company if the caller may view its branch; otherwise
// `order_not_found` (also for junk ids).
core::Result<json::object> load_order(App& app, const CompanyContext& ctx, std::string_view order_id);

// Runs `change` on the order as stored, inside one write transaction, and stores the result. `change` may
// run more than once (see KvStore::write): it must only touch the order and the txn. `current` receives the
// order as stored after the write, or as it stood when `change` refused (for the invalid_version body).
core::Status change_order(
    App& app, const std::string& key,
    const std::function<core::Status(json::object& order, store::WriteTxn& txn)>& change,
    json::object& current);

// The stored order's version and state against core::restaurant::check_order_version / check_order_open:
// `invalid_version`, `order_not_open`.
core::Status check_version(const json::object& order, std::int64_t sent);
core::Status check_open(const json::object& order);

// The open orders of a branch on one business date, oldest first (by number), read from the open index.
core::Result<std::vector<json::object>> open_orders(App& app, const CompanyContext& ctx,
                                                    std::string_view branch_id, std::string_view day);

// The topic of a branch's live board (edge/platform/event_hub.h, GET /orders/board/events).
std::string board_topic(const CompanyContext& ctx, std::string_view branch_id);
// Tells the branch's board about a committed order write: event `order`, data the order as stored. Called
// after the transaction, never inside it (its function may run more than once).
void announce_order(App& app, const CompanyContext& ctx, const json::object& order);

// The answer to a refused order write: 409 `invalid_version` carries the current order,
// `{"error": "invalid_version", "message": ..., "order": {...}}`; every other code is rest_error's.
Response order_write_error(const core::Error& e, const json::object& current);

}  // namespace edge::restaurant

namespace edge::restaurant {
// Route registration of order_item_routes.cpp (lines and payments); called by register_orders.
void register_order_items(App& app);
void register_order_payments(App& app);
// GET /orders/board/events (board_events_routes.cpp).
void register_board_events(App& app);
}  // namespace edge::restaurant
