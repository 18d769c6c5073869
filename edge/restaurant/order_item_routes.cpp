// Order lines and payments (docs/restaurant-orders.md). Every write re-reads the order inside its write
// transaction and repeats the checks there: the read before it only decides early answers.
//
// Precedence: order_not_found (404), forbidden_branch (403), order_not_open (409), request types (400/422),
// invalid_version (409, lines only), then the menu and money rules (404/422).

#include <algorithm>
#include <charconv>

#include "core/id.h"
#include "core/restaurant/text_field.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/order_record.h"
#include "edge/restaurant/restaurant_common.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {
namespace {

constexpr std::size_t kMaxPaymentIdBytes = 100;
constexpr std::size_t kMaxMethodChars = 64;

// The order named by {id} when the caller may write to its branch; otherwise the response to send.
core::Result<json::object> writable_order(App& app, Request& req, const CompanyContext& ctx,
                                          std::optional<Response>& refused) {
  auto order = load_order(app, ctx, req.param("id"));
  if (!order) {
    refused = rest_error(order.error());
    return order.error();
  }
  std::string branch_id = record::str(*order, "branchId");
  if (!may_write_branch(ctx, branch_id)) {
    refused = rest_forbidden_branch(branch_id);
    return core::make_error("forbidden_branch", "");
  }
  return order;
}

// Line edits: a closed order, then a stale version, refuse; otherwise `edit` changes the lines and the
// version goes up by one.
Response edit_lines(App& app, const CompanyContext& ctx, const json::object& order, std::int64_t version,
                    const std::function<core::Status(json::array& lines)>& edit, int status) {
  std::string now = now_text(app);
  json::object current;
  auto st = change_order(
      app, order_key(ctx, record::str(order, "id")),
      [&](json::object& o, store::WriteTxn&) -> core::Status {
        CORE_TRY(check_open(o));
        CORE_TRY(check_version(o, version));
        if (!o["items"].is_array()) o["items"] = json::array();
        CORE_TRY(edit(o["items"].get_array()));
        auto totals = refresh_totals(o);
        if (!totals) return totals.error();
        o["version"] = version + 1;
        o["updatedAt"] = now;
        return {};
      },
      current);
  if (!st.ok()) return order_write_error(st.error(), current);
  announce_order(app, ctx, current);
  return rest_ok(std::move(current), status);
}

Response add_item(App& app, Request& req, const CompanyContext& ctx) {
  std::optional<Response> refused;
  auto order = writable_order(app, req, ctx, refused);
  if (!order) return std::move(*refused);
  if (auto open = check_open(*order); !open.ok()) return rest_error(open.error());
  auto body = core::parse_json_object(req.body);
  if (!body) return rest_error(body.error());
  auto version = core::require_int(*body, "version");
  if (!version) return rest_error(version.error());
  auto item = parse_item(*body);
  if (!item) return rest_error(item.error());
  if (auto v = check_version(*order, *version); !v.ok()) return order_write_error(v.error(), *order);
  auto line = make_line(app, ctx, *item, core::make_id("ln_", app.random));
  if (!line) return rest_error(line.error());
  return edit_lines(
      app, ctx, *order, *version,
      [&](json::array& lines) -> core::Status {
        lines.emplace_back(*line);
        return {};
      },
      201);
}

Response remove_item(App& app, Request& req, const CompanyContext& ctx) {
  std::optional<Response> refused;
  auto order = writable_order(app, req, ctx, refused);
  if (!order) return std::move(*refused);
  if (auto open = check_open(*order); !open.ok()) return rest_error(open.error());
  auto line_id = req.query_param("lineId");
  if (!line_id || line_id->empty())
    return rest_error(422, "missing_field", "query parameter 'lineId' is required");
  auto version_text = req.query_param("version");
  if (!version_text || version_text->empty())
    return rest_error(422, "missing_field", "query parameter 'version' is required");
  std::int64_t version = 0;
  auto [end, ec] =
      std::from_chars(version_text->data(), version_text->data() + version_text->size(), version);
  if (ec != std::errc() || end != version_text->data() + version_text->size())
    return rest_error(422, "invalid_field", "query parameter 'version' must be an integer");
  if (auto v = check_version(*order, version); !v.ok()) return order_write_error(v.error(), *order);
  std::string wanted(*line_id);
  return edit_lines(
      app, ctx, *order, version,
      [&](json::array& lines) -> core::Status {
        auto it = std::find_if(lines.begin(), lines.end(), [&](const json::value& l) {
          return l.is_object() && record::str(l.get_object(), "lineId") == wanted;
        });
        if (it == lines.end()) return core::make_error("line_not_found", "line '" + wanted + "' not found");
        lines.erase(it);
        return {};
      },
      200);
}

// ---- Payments -----------------------------------------------------------------------------------------

struct PaymentRequest {
  std::string paymentId;
  std::int64_t amountMinor = 0;
  std::string method;
};

// paymentId is part of the ledger key: 1..100 bytes of letters, digits and `-_.:` (UUIDs, ULIDs fit).
bool valid_payment_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxPaymentIdBytes) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == ':';
  });
}

core::Result<PaymentRequest> parse_payment(const json::object& body) {
  PaymentRequest out;
  auto id = core::require_string(body, "paymentId");
  if (!id) return id.error();
  if (!valid_payment_id(*id))
    return core::make_error("invalid_field",
                            "field 'paymentId' must be 1 to 100 letters, digits or '-', '_', '.', ':'");
  out.paymentId = *id;
  auto amount = amount_field(body, "amountMinor", true);
  if (!amount) return amount.error();
  out.amountMinor = **amount;
  auto method = core::optional_string(body, "method");
  if (!method) return method.error();
  auto trimmed = core::restaurant::trimmed_text_field(method->value_or("cash"), "method", kMaxMethodChars);
  if (!trimmed) return trimmed.error();
  out.method = *trimmed;
  return out;
}

// The payment `id` already on the order, if any.
const json::object* find_payment(const json::object& order, std::string_view id) {
  if (auto* ps = order.if_contains("payments"); ps && ps->is_array())
    for (auto& p : ps->get_array())
      if (p.is_object() && record::str(p.get_object(), "paymentId") == id) return &p.get_object();
  return nullptr;
}

// A known paymentId: the same amount and method is a retry (answered with the order, 200), anything else
// reuses the key for another payment (409 idempotency_conflict).
core::Status same_payment(const json::object& stored, const PaymentRequest& p) {
  if (record::num(stored, "amountMinor") == p.amountMinor && record::str(stored, "method") == p.method)
    return {};
  return core::make_error("idempotency_conflict", "paymentId '" + p.paymentId +
                                                      "' was already used with a different amount or method");
}

Response add_payment(App& app, Request& req, const CompanyContext& ctx) {
  std::optional<Response> refused;
  auto order = writable_order(app, req, ctx, refused);
  if (!order) return std::move(*refused);
  auto body = core::parse_json_object(req.body);
  if (!body) return rest_error(body.error());
  auto payment = parse_payment(*body);
  if (!payment) return rest_error(payment.error());
  if (auto* known = find_payment(*order, payment->paymentId)) {
    auto same = same_payment(*known, *payment);
    if (!same.ok()) return rest_error(same.error());
    return rest_ok(std::move(*order), 200);
  }
  if (auto open = check_open(*order); !open.ok()) return rest_error(open.error());
  // The ledger files the payment under the business date it was taken on (the till's day), which is the
  // order's own date except for a tab still open past the branch's cutoff.
  std::string branch_id = record::str(*order, "branchId");
  auto branch = load_branch(app, ctx, branch_id);
  if (!branch) return rest_error(branch.error());
  auto day = current_business_date(app, *branch);
  if (!day) return rest_error(day.error());
  std::string business_date = core::format_day_key(*day);
  std::string now = now_text(app);
  std::string order_id = record::str(*order, "id");
  store::Table t = app.restaurant_table;
  bool retried = false;
  json::object current;
  auto st = change_order(
      app, order_key(ctx, order_id),
      [&](json::object& o, store::WriteTxn& txn) -> core::Status {
        retried = false;
        if (auto* known = find_payment(o, payment->paymentId)) {
          CORE_TRY(same_payment(*known, *payment));
          retried = true;  // stored again unchanged: a harmless rewrite keeps change_order simple
          return {};
        }
        CORE_TRY(check_open(o));
        auto balance = refresh_totals(o);
        if (!balance) return balance.error();
        CORE_TRY(core::restaurant::validate_new_payment(
            *balance, {payment->paymentId, payment->amountMinor, payment->method}));
        if (!o["payments"].is_array()) o["payments"] = json::array();
        o["payments"].get_array().emplace_back(json::object{{"paymentId", payment->paymentId},
                                                            {"amountMinor", payment->amountMinor},
                                                            {"method", payment->method},
                                                            {"createdAt", now}});
        auto totals = refresh_totals(o);
        if (!totals) return totals.error();
        o["version"] = record::num(o, "version") + 1;
        o["updatedAt"] = now;
        txn.put(t, order_payment_key(ctx, branch_id, business_date, order_id, payment->paymentId),
                core::to_json(json::object{{"orderId", order_id},
                                           {"paymentId", payment->paymentId},
                                           {"branchId", branch_id},
                                           {"businessDate", business_date},
                                           {"amountMinor", payment->amountMinor},
                                           {"method", payment->method},
                                           {"createdAt", now}}));
        return {};
      },
      current);
  if (!st.ok()) return order_write_error(st.error(), current);
  if (!retried) announce_order(app, ctx, current);
  return rest_ok(std::move(current), retried ? 200 : 201);
}

}  // namespace

void register_order_items(App& app) {
  Router& r = app.router;
  r.add("POST", path("/orders/{id}/items"),
        restaurant_route(
            app, "", [&app](Request& req, const CompanyContext& ctx) { return add_item(app, req, ctx); }));
  r.add("DELETE", path("/orders/{id}/items"),
        restaurant_route(
            app, "", [&app](Request& req, const CompanyContext& ctx) { return remove_item(app, req, ctx); }));
}

void register_order_payments(App& app) {
  app.router.add("POST", path("/orders/{id}/payments"),
                 restaurant_route(app, "", [&app](Request& req, const CompanyContext& ctx) {
                   return add_payment(app, req, ctx);
                 }));
}

}  // namespace edge::restaurant
