#include "edge/restaurant/order_record.h"

#include <algorithm>

#include "core/crypto.h"
#include "core/id.h"
#include "core/restaurant/menu.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/restaurant/menu_store.h"
#include "edge/restaurant/restaurant_http.h"
#include "edge/restaurant/restaurant_store.h"

namespace edge::restaurant {

namespace {
std::string company_prefix(const CompanyContext& ctx) {
  return "c/" + ctx.company.id + "/";
}
}  // namespace

std::string order_key(const CompanyContext& ctx, std::string_view order_id) {
  return company_key(ctx, "order", order_id);
}

std::string open_order_prefix(const CompanyContext& ctx, std::string_view branch_id, std::string_view day) {
  return company_prefix(ctx) + "orderopen/" + std::string(branch_id) + "/" + std::string(day) + "/";
}

std::string order_number_key(const CompanyContext& ctx, std::string_view branch_id, std::string_view day) {
  return company_prefix(ctx) + "ordernum/" + std::string(branch_id) + "/" + std::string(day);
}

std::string order_idempotency_key(const CompanyContext& ctx, std::string_view branch_id,
                                  std::string_view client_order_id) {
  // Hashed: a client key may hold any character and be long; the hash keeps the key short and clean.
  return company_prefix(ctx) + "orderidem/" + std::string(branch_id) + "/" +
         core::sha256_hex(client_order_id);
}

std::string order_payment_key(const CompanyContext& ctx, std::string_view branch_id, std::string_view day,
                              std::string_view order_id, std::string_view payment_id) {
  return company_prefix(ctx) + "orderpay/" + std::string(branch_id) + "/" + std::string(day) + "/" +
         std::string(order_id) + "/" + std::string(payment_id);
}

core::Result<ItemRequest> parse_item(const json::object& item) {
  ItemRequest out;
  auto product = core::require_string(item, "productId");
  if (!product) return product.error();
  out.productId = *product;
  auto* q = item.if_contains("quantity");
  if (!q || q->is_null()) return core::make_error("missing_field", "field 'quantity' is required");
  auto quantity = core::require_int(item, "quantity");
  if (!quantity) {
    if (q->is_number())
      return core::make_error("invalid_quantity", "field 'quantity' must be a whole number");
    return quantity.error();
  }
  out.quantity = *quantity;
  auto options = core::optional_string_array(item, "options");
  if (!options) return options.error();
  if (*options) out.options = std::move(**options);
  return out;
}

core::Result<json::object> make_line(App& app, const CompanyContext& ctx, const ItemRequest& item,
                                     std::string line_id) {
  auto menu_item = load_menu_item(app, ctx, item.productId);
  if (!menu_item) return menu_item.error();
  auto priced = core::restaurant::price_item(menu_item->product, menu_item->groups, item.options);
  if (!priced) return priced.error();
  core::restaurant::OrderLine line{line_id,
                                   item.productId,
                                   menu_item->product.name,
                                   priced->unitPriceMinor,
                                   item.quantity,
                                   menu_item->product.vatRateBps};
  CORE_TRY(core::restaurant::validate_order_line(line));
  json::array options;
  for (auto& o : priced->options)
    options.emplace_back(json::object{{"groupId", o.groupId},
                                      {"optionId", o.optionId},
                                      {"name", o.name},
                                      {"priceDeltaMinor", o.priceDeltaMinor}});
  return json::object{
      {"lineId", std::move(line_id)},          {"productId", item.productId}, {"name", line.name},
      {"unitPriceMinor", line.unitPriceMinor}, {"quantity", line.quantity},   {"vatRateBps", line.vatRateBps},
      {"options", std::move(options)}};
}

std::string create_fingerprint(std::string_view branch_id, const std::optional<std::string>& table_id,
                               const std::vector<ItemRequest>& items) {
  json::array lines;
  for (const ItemRequest& item : items) {
    std::vector<std::string> options = item.options;
    std::sort(options.begin(), options.end());  // a choice is a set: the order it was sent in is noise
    lines.emplace_back(json::object{
        {"productId", item.productId}, {"quantity", item.quantity}, {"options", record::array_of(options)}});
  }
  json::object normalized{{"branchId", branch_id},
                          {"tableId", table_id ? json::value(*table_id) : json::value(nullptr)},
                          {"items", std::move(lines)}};
  return core::sha256_hex(core::to_json(normalized));
}

core::Result<core::restaurant::OrderBalance> refresh_totals(json::object& order) {
  std::vector<core::restaurant::OrderLine> lines;
  std::vector<core::restaurant::Payment> payments;
  json::array& stored_lines =
      order["items"].is_array() ? order["items"].get_array() : order["items"].emplace_array();
  for (auto& l : stored_lines) {
    auto& o = l.as_object();
    lines.push_back({record::str(o, "lineId"), record::str(o, "productId"), record::str(o, "name"),
                     record::num(o, "unitPriceMinor"), record::num(o, "quantity"),
                     record::num(o, "vatRateBps")});
  }
  if (auto* ps = order.if_contains("payments"); ps && ps->is_array())
    for (auto& p : ps->get_array()) {
      auto& o = p.as_object();
      payments.push_back(
          {record::str(o, "paymentId"), record::num(o, "amountMinor"), record::str(o, "method")});
    }
  auto balance = core::restaurant::order_balance(lines, payments);
  if (!balance) return balance.error();
  for (std::size_t i = 0; i < stored_lines.size(); ++i) {
    auto& o = stored_lines[i].as_object();
    const core::VatSplit& split = balance->totals.lines[i].split;
    o["grossMinor"] = split.grossMinor;
    o["netMinor"] = split.netMinor;
    o["vatMinor"] = split.vatMinor;
  }
  order["grossMinor"] = balance->totals.grossMinor;
  order["netMinor"] = balance->totals.netMinor;
  order["vatMinor"] = balance->totals.vatMinor;
  order["paidMinor"] = balance->paidMinor;
  order["dueMinor"] = balance->dueMinor;
  return balance;
}

core::Result<json::object> load_order(App& app, const CompanyContext& ctx, std::string_view order_id) {
  auto missing = core::make_error("order_not_found", "order not found");
  if (!core::has_id_shape("ord_", order_id)) return missing;
  auto rec = get_record(app, order_key(ctx, order_id));
  if (!rec) return rec.error();
  if (!*rec || !may_view_branch(ctx, record::str(**rec, "branchId"))) return missing;
  return std::move(**rec);
}

core::Status change_order(
    App& app, const std::string& key,
    const std::function<core::Status(json::object& order, store::WriteTxn& txn)>& change,
    json::object& current) {
  store::Table t = app.restaurant_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto text = txn.get(t, key);
    auto order = text ? core::parse_json_object(*text) : core::Result<json::object>(core::Error{});
    if (!text || !order) return core::make_error("order_not_found", "order not found");
    current = *order;
    CORE_TRY(change(*order, txn));
    txn.put(t, key, core::to_json(*order));
    current = std::move(*order);
    return {};
  });
}

core::Status check_version(const json::object& order, std::int64_t sent) {
  return core::restaurant::check_order_version(record::num(order, "version"), sent);
}

core::Status check_open(const json::object& order) {
  return core::restaurant::check_order_open(record::str(order, "status"));
}

core::Result<std::vector<json::object>> open_orders(App& app, const CompanyContext& ctx,
                                                    std::string_view branch_id, std::string_view day) {
  std::string prefix = open_order_prefix(ctx, branch_id, day);
  std::vector<json::object> orders;
  store::Table t = app.restaurant_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    orders.clear();
    txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
      auto text = txn.get(t, order_key(ctx, key.substr(prefix.size())));
      if (text)
        if (auto o = core::parse_json_object(*text)) orders.push_back(std::move(*o));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  // Numbers are given out in creation order within a branch and business date.
  std::stable_sort(orders.begin(), orders.end(), [](const json::object& a, const json::object& b) {
    return record::num(a, "number") < record::num(b, "number");
  });
  return orders;
}

std::string board_topic(const CompanyContext& ctx, std::string_view branch_id) {
  return "restaurant/board/" + ctx.company.id + "/" + std::string(branch_id);
}

void announce_order(App& app, const CompanyContext& ctx, const json::object& order) {
  app.events.publish(board_topic(ctx, record::str(order, "branchId")), core::to_json(order), "order");
}

Response order_write_error(const core::Error& e, const json::object& current) {
  if (e.code != "invalid_version") return rest_error(e);
  Response r;
  r.status = 409;
  r.body = core::to_json(json::object{{"error", e.code}, {"message", e.message}, {"order", current}});
  return r;
}

}  // namespace edge::restaurant
