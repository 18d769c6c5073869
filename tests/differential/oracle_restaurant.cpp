// priceItem, orderTotals, orderBalance, canPay, canClose, payableBucket and groupPayables answered by
// core/restaurant/. The package's documented rules on top of the core (bindings/index.d.ts, docs/wasm.md):
// - a number that is not a safe integer fails with its member's code and a message giving the range, in the
//   order the core checks (an earlier line, payment or check the core refuses is reported first);
// - day keys are parsed before the core is called, the message starting with the argument's name;
// - groupPayables checks today, then each item (dueDate, amountMinor), and refuses totals above 2^53 - 1.

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/date.h"
#include "core/money.h"
#include "core/restaurant/menu.h"
#include "core/restaurant/order.h"
#include "core/restaurant/payables.h"
#include "tests/differential/oracle.h"

namespace oracle {
namespace {

namespace rest = core::restaurant;

// A value no rule accepts, standing for a number that is not a safe integer: the core then refuses that
// member at its own turn.
constexpr std::int64_t kRefused = std::numeric_limits<std::int64_t>::min();

std::int64_t or_refused(const JsNumber& n) {
  return n.safe ? n.value : kRefused;
}

json::value unsafe_amount(std::string_view field, int min = 0) {
  return fail("invalid_amount", std::string(field) + " must be an integer from " + std::to_string(min) +
                                    " to 1000000000000000 minor units");
}

json::value unsafe_rate() {
  return fail("vat_rate_invalid", "VAT rate must be an integer from 0 to 10000 basis points");
}

json::value unsafe_quantity() {
  return fail("invalid_quantity", "quantity must be a whole number from 1 to 100000");
}

std::int64_t count_or(const json::value& js, std::int64_t refused) {
  const JsNumber n = js_number(js);
  return n.safe ? n.value : refused;
}

// --- menu --------------------------------------------------------------------------------------------------

// priceItem(product, optionGroups, optionIds): the product (rate, then price), each group, then price_item.
json::value price_item(const json::array& args) {
  const json::value& p = arg(args, 0);
  const JsNumber price = js_number(member(p, "priceMinor"));
  const JsNumber rate = js_number(member(p, "vatRateBps"));
  const rest::MenuProduct product{text(member(p, "id")), text(member(p, "name")), or_refused(price),
                                  or_refused(rate), is_absent(p, "active") || member(p, "active").as_bool()};
  if (!rate.safe) return unsafe_rate();
  if (auto valid = rest::validate_product(product); !valid) {
    if (!price.safe) return unsafe_amount("priceMinor");
    return fail(valid.error());
  }

  std::vector<rest::OptionGroup> groups;
  for (const json::value& g : arg(args, 1).as_array()) {
    rest::OptionGroup group{text(member(g, "id")), text(member(g, "name")), 0, 1, {}};
    // minSelect and maxSelect are counts, not amounts: one that is not a safe integer is out of range
    // (minSelect below 0, maxSelect below 1) and refused with the core's own invalid_field message.
    if (!is_absent(g, "minSelect")) group.minSelect = count_or(member(g, "minSelect"), -1);
    if (!is_absent(g, "maxSelect")) group.maxSelect = count_or(member(g, "maxSelect"), 0);
    bool unsafe_delta = false;
    for (const json::value& o : member(g, "options").as_array()) {
      const JsNumber delta = js_number(member(o, "priceDeltaMinor"));
      unsafe_delta = unsafe_delta || !delta.safe;
      group.options.push_back(
          rest::MenuOption{text(member(o, "id")), text(member(o, "name")), or_refused(delta)});
    }
    if (auto valid = rest::validate_option_group(group); !valid) {
      // The first refused delta is the first unusable or out-of-range one.
      if (unsafe_delta && valid.error().code == "invalid_amount") {
        for (const json::value& o : member(g, "options").as_array()) {
          const JsNumber delta = js_number(member(o, "priceDeltaMinor"));
          if (!delta.safe) return unsafe_amount("priceDeltaMinor");
          if (!core::validate_amount_minor(delta.value)) break;
        }
      }
      return fail(valid.error());
    }
    groups.push_back(std::move(group));
  }
  std::vector<std::string> chosen;
  for (const json::value& id : arg(args, 2).as_array()) chosen.push_back(text(id));

  auto priced = rest::price_item(product, groups, chosen);
  if (!priced) return fail(priced.error());
  json::array options;
  for (const rest::ChosenOption& o : priced->options) {
    options.push_back(json::object{{"groupId", o.groupId},
                                   {"optionId", o.optionId},
                                   {"name", o.name},
                                   {"priceDeltaMinor", o.priceDeltaMinor}});
  }
  return ok(json::object{{"unitPriceMinor", priced->unitPriceMinor}, {"options", std::move(options)}});
}

// --- orders ------------------------------------------------------------------------------------------------

// The lines, or the answer for the first line the core would refuse when one holds an unusable number.
struct Lines {
  std::vector<rest::OrderLine> lines;
  std::optional<json::value> refused;
};

Lines read_lines(const json::value& js) {
  Lines out;
  for (const json::value& l : js.as_array()) {
    const JsNumber unit = js_number(member(l, "unitPriceMinor"));
    const JsNumber quantity = js_number(member(l, "quantity"));
    const JsNumber rate = js_number(member(l, "vatRateBps"));
    rest::OrderLine line{text(member(l, "lineId")), text(member(l, "productId")), text(member(l, "name")),
                         or_refused(unit),          or_refused(quantity),         or_refused(rate)};
    if (!(unit.safe && quantity.safe && rate.safe)) {
      if (auto before = rest::order_totals(out.lines); !before) {
        out.refused = fail(before.error());
        return out;
      }
      // The core's checks of one line, in its order: quantity, rate, unit price.
      const core::Error error = rest::validate_order_line(line).error();
      if (error.code == "invalid_quantity" && !quantity.safe)
        out.refused = unsafe_quantity();
      else if (error.code == "vat_rate_invalid" && !rate.safe)
        out.refused = unsafe_rate();
      else if (error.code == "invalid_amount" && !unit.safe)
        out.refused = unsafe_amount("unitPriceMinor");
      else
        out.refused = fail(error);
      return out;
    }
    out.lines.push_back(std::move(line));
  }
  return out;
}

rest::Payment read_payment(const json::value& js, JsNumber* amount) {
  *amount = js_number(member(js, "amountMinor"));
  return rest::Payment{text(member(js, "paymentId")), amount->value, text(member(js, "method"))};
}

// The balance of lines and payments, or the answer refusing them.
struct Balance {
  std::optional<rest::OrderBalance> balance;
  json::value refused;
};

Balance balance(const json::array& args) {
  Lines lines = read_lines(arg(args, 0));
  if (lines.refused) return {std::nullopt, *lines.refused};
  std::vector<rest::Payment> payments;
  for (const json::value& js : arg(args, 1).as_array()) {
    JsNumber amount;
    rest::Payment payment = read_payment(js, &amount);
    if (!amount.safe) {
      auto before = rest::order_balance(lines.lines, payments);
      return {std::nullopt, before ? unsafe_amount("amountMinor", 1) : fail(before.error())};
    }
    payments.push_back(std::move(payment));
  }
  auto result = rest::order_balance(lines.lines, payments);
  if (!result) return {std::nullopt, fail(result.error())};
  return {std::move(*result), nullptr};
}

json::value totals_json(const rest::OrderTotals& totals) {
  json::array items;
  for (const rest::LineTotals& line : totals.lines) {
    items.push_back(json::object{{"lineId", line.lineId},
                                 {"grossMinor", line.split.grossMinor},
                                 {"netMinor", line.split.netMinor},
                                 {"vatMinor", line.split.vatMinor}});
  }
  return json::object{{"grossMinor", totals.grossMinor},
                      {"netMinor", totals.netMinor},
                      {"vatMinor", totals.vatMinor},
                      {"items", std::move(items)}};
}

json::value order_totals(const json::array& args) {
  Lines lines = read_lines(arg(args, 0));
  if (lines.refused) return *lines.refused;
  auto totals = rest::order_totals(lines.lines);
  if (!totals) return fail(totals.error());
  return ok(totals_json(*totals));
}

json::value order_balance(const json::array& args) {
  const Balance computed = balance(args);
  if (!computed.balance) return computed.refused;
  const rest::OrderBalance* b = &*computed.balance;
  return ok(json::object{{"totals", totals_json(b->totals)},
                         {"paidMinor", b->paidMinor},
                         {"dueMinor", b->dueMinor},
                         {"overpaidMinor", b->overpaidMinor}});
}

json::value can_pay(const json::array& args) {
  const Balance computed = balance(args);
  if (!computed.balance) return computed.refused;
  const rest::OrderBalance* b = &*computed.balance;
  JsNumber amount;
  const rest::Payment payment = read_payment(arg(args, 2), &amount);
  if (!amount.safe) return unsafe_amount("amountMinor", 1);
  if (auto valid = rest::validate_new_payment(*b, payment); !valid) return fail(valid.error());
  return ok(nullptr);
}

json::value can_close(const json::array& args) {
  const Balance computed = balance(args);
  if (!computed.balance) return computed.refused;
  const rest::OrderBalance* b = &*computed.balance;
  if (auto valid = rest::check_can_close(*b); !valid) return fail(valid.error());
  return ok(nullptr);
}

// --- payables ----------------------------------------------------------------------------------------------

core::Result<core::CivilDate> named_day(const json::value& js, const std::string& name) {
  auto date = core::parse_day_key(text(js));
  if (!date) return core::make_error(date.error().code, name + ": " + date.error().message);
  return date;
}

json::value payable_bucket(const json::array& args) {
  auto due = named_day(arg(args, 0), "dueDate");
  if (!due) return fail(due.error());
  auto today = named_day(arg(args, 1), "today");
  if (!today) return fail(today.error());
  return ok(json::string(rest::payable_bucket_key(rest::payable_bucket(*due, *today))));
}

json::value group_payables(const json::array& args) {
  auto today = named_day(arg(args, 1), "today");
  if (!today) return fail(today.error());
  constexpr std::int64_t kMaxSafe = 9007199254740991;
  std::vector<rest::Payable> payables;
  std::int64_t total = 0;
  const json::array& items = arg(args, 0).as_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string where = "payables[" + std::to_string(i) + "].";
    auto due = named_day(member(items[i], "dueDate"), where + "dueDate");
    if (!due) return fail(due.error());
    const JsNumber amount = js_number(member(items[i], "amountMinor"));
    if (!amount.safe) return unsafe_amount(where + "amountMinor");
    if (auto valid = core::validate_amount_minor(amount.value, where + "amountMinor"); !valid) {
      return fail(valid.error());
    }
    // The running total is checked item by item: the first item that takes it past 2^53 - 1 is refused,
    // before any later item is looked at.
    total += amount.value;
    if (total > kMaxSafe) return fail("invalid_amount", "the payables total exceeds 2^53 - 1 minor units");
    payables.push_back(rest::Payable{text(member(items[i], "expenseId")), *due, amount.value});
  }
  json::array groups;
  for (const rest::PayableGroup& group : rest::group_payables(payables, *today)) {
    json::array list;
    for (const rest::Payable& p : group.items) {
      list.push_back(json::object{{"expenseId", p.expenseId},
                                  {"dueDate", core::format_day_key(p.dueDate)},
                                  {"amountMinor", p.amountMinor}});
    }
    groups.push_back(
        json::object{{"key", group.key}, {"items", std::move(list)}, {"totalMinor", group.totalMinor}});
  }
  return ok(std::move(groups));
}

constexpr std::array kFunctions = {
    Function{"priceItem", &price_item},         Function{"orderTotals", &order_totals},
    Function{"orderBalance", &order_balance},   Function{"canPay", &can_pay},
    Function{"canClose", &can_close},           Function{"payableBucket", &payable_bucket},
    Function{"groupPayables", &group_payables},
};

}  // namespace

std::span<const Function> restaurant_functions() {
  return kFunctions;
}

}  // namespace oracle
