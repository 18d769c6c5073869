// The `platform_restaurant` ES module (restaurant entry of bindings/): the VAT split, business dates and day
// arithmetic, and the restaurant rules of core/restaurant/ for the offline till, which must compute exactly
// what the server stores.
//
// Contract with bindings/restaurant.js, as in tokens_module.cpp (answers `{ok: true, value}` or
// `{ok: false, code, message}` with the core's code; nothing throws into JS), plus:
// - Structured arguments (order lines, payments, payables, an income row) arrive as JS arrays and objects
//   that the bindings have type-checked and copied (only the documented members, of the documented types),
//   and are read here member by member through emscripten::val. No JSON text crosses: a number reaches the
//   core exactly as the caller gave it (JSON would turn NaN into null and 2^60 into an int64 that looks
//   fine).
// - Numbers that stand for integers must be safe integers. One that is not fails with the code the core uses
//   for that member (`invalid_amount`, `invalid_quantity`, `vat_rate_invalid`), in the order the core checks
//   its inputs: an earlier line or payment that the core refuses is still reported first.
// - Day keys are `YYYY-MM-DD` strings (`invalid_date` otherwise); instants are ISO 8601 UTC strings.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/date.h"
#include "core/money.h"
#include "core/restaurant/expense.h"
#include "core/restaurant/expense_import.h"
#include "core/restaurant/income.h"
#include "core/restaurant/menu.h"
#include "core/restaurant/order.h"
#include "core/restaurant/payables.h"
#include "core/restaurant/shift.h"
#include "core/result.h"
#include "wasm/js_result.h"

namespace {

using emscripten::val;
using platform_wasm::error_result;
using platform_wasm::js_number;
using platform_wasm::length_of;
using platform_wasm::ok_result;
using platform_wasm::safe_int;
using platform_wasm::safe_integer;

namespace rest = core::restaurant;

// --- money -------------------------------------------------------------------------------------------------

// {grossMinor, netMinor, vatMinor}. Errors: vat_rate_invalid (checked first), invalid_amount. A number that
// is not a safe integer fails with the code of its argument, like an out-of-range one.
val vat_split(double gross_minor, double bps) {
  auto rate = safe_integer(bps);
  if (!rate) {
    return error_result(
        core::make_error("vat_rate_invalid", "VAT rate must be an integer from 0 to 10000 basis points"));
  }
  auto gross = safe_integer(gross_minor);
  if (!gross) {
    // The core checks the rate first: an out-of-range rate wins over an unusable gross.
    if (auto status = core::validate_vat_rate_bps(*rate); !status) return error_result(status.error());
    return error_result(core::make_error(
        "invalid_amount", "grossMinor must be an integer from 0 to 1000000000000000 minor units"));
  }
  auto split = core::split_vat(*gross, *rate);
  if (!split) return error_result(split.error());
  val value = val::object();
  value.set("grossMinor", static_cast<double>(split->grossMinor));
  value.set("netMinor", static_cast<double>(split->netMinor));
  value.set("vatMinor", static_cast<double>(split->vatMinor));
  return ok_result(value);
}

// --- dates -------------------------------------------------------------------------------------------------

core::Error invalid_local_time(std::string_view text) {
  return core::make_error("invalid_time", "'" + std::string(text) +
                                              "' is not a local date and time (expected YYYY-MM-DDTHH:MM or "
                                              "YYYY-MM-DDTHH:MM:SS)");
}

bool two_digits(std::string_view text, std::size_t at, int& out) {
  if (at + 2 > text.size()) return false;
  const char a = text[at], b = text[at + 1];
  if (a < '0' || a > '9' || b < '0' || b > '9') return false;
  out = (a - '0') * 10 + (b - '0');
  return true;
}

// `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`: the value of an HTML datetime-local input. Ranges (hour 24,
// minute 60, February 30) are left to the core, which reports them as invalid_time / invalid_date.
core::Result<core::LocalDateTime> parse_local_date_time(std::string_view text) {
  auto date = core::parse_day_key(text.substr(0, std::min<std::size_t>(text.size(), 10)));
  if (!date) return date.error();
  core::LocalDateTime local{*date, 0, 0, 0};
  const bool shape_ok = (text.size() == 16 || text.size() == 19) && text[10] == 'T' && text[13] == ':' &&
                        two_digits(text, 11, local.hour) && two_digits(text, 14, local.minute) &&
                        (text.size() == 16 || (text[16] == ':' && two_digits(text, 17, local.second)));
  if (!shape_ok) return invalid_local_time(text);
  return local;
}

// "YYYY-MM-DD": the business date of a local wall-clock time. Errors: invalid_cutoff_hour, invalid_date,
// invalid_time.
val business_date(const std::string& local_date_time, double day_cutoff_hour) {
  auto cutoff = safe_int(day_cutoff_hour);
  if (!cutoff) {
    return error_result(
        core::make_error("invalid_cutoff_hour", "dayCutoffHour must be an integer from 0 to 23"));
  }
  auto local = parse_local_date_time(local_date_time);
  if (!local) {
    // The core checks the cutoff before the time; keep its order when both are wrong.
    auto cutoff_check = core::business_date(core::LocalDateTime{}, *cutoff);
    return error_result(cutoff_check ? local.error() : cutoff_check.error());
  }
  auto date = core::business_date(*local, *cutoff);
  if (!date) return error_result(date.error());
  return ok_result(val(core::format_day_key(*date)));
}

// "YYYY-MM-DD" `days` after `day_key` (before it when negative). Errors: invalid_date for a bad key, a
// non-integer day count or a result outside 0000..9999.
val add_days(const std::string& day_key, double days) {
  auto date = core::parse_day_key(day_key);
  if (!date) return error_result(date.error());
  auto count = safe_int(days);
  if (!count) return error_result(core::make_error("invalid_date", "days must be an integer"));
  constexpr std::int64_t kFirstDay = -719528;  // 0000-01-01 in days since 1970-01-01
  constexpr std::int64_t kLastDay = 2932896;   // 9999-12-31
  const std::int64_t target = core::days_from_civil(*date) + *count;
  if (target < kFirstDay || target > kLastDay) {
    return error_result(
        core::make_error("invalid_date", "the resulting day lies outside 0000-01-01..9999-12-31"));
  }
  return ok_result(val(core::format_day_key(core::civil_from_days(target))));
}

// --- reading arguments -------------------------------------------------------------------------------------

std::string string_member(const val& object, const char* name) {
  return object[name].as<std::string>();
}

std::optional<std::int64_t> integer_member(const val& object, const char* name) {
  return safe_integer(object[name].as<double>());
}

// The errors for a number that is not a safe integer: the core's code for the member and its range, without
// the value (which the core's own messages quote, but which has no exact int64 here).
core::Error unsafe_amount(std::string_view field, std::int64_t min = 0) {
  return core::make_error("invalid_amount", std::string(field) + " must be an integer from " +
                                                std::to_string(min) + " to 1000000000000000 minor units");
}

core::Error unsafe_vat_rate() {
  return core::make_error("vat_rate_invalid", "VAT rate must be an integer from 0 to 10000 basis points");
}

core::Error unsafe_quantity() {
  return core::make_error("invalid_quantity", "quantity must be a whole number from 1 to " +
                                                  std::to_string(rest::kMaxLineQuantity));
}

core::Result<core::CivilDate> day_key(const std::string& text, std::string_view field) {
  auto date = core::parse_day_key(text);
  if (!date) return core::make_error(date.error().code, std::string(field) + ": " + date.error().message);
  return *date;
}

// --- expenses ----------------------------------------------------------------------------------------------

val expense_amounts_value(const rest::ExpenseAmounts& amounts) {
  val value = val::object();
  value.set("grossMinor", js_number(amounts.grossMinor));
  value.set("netMinor", js_number(amounts.netMinor));
  value.set("vatMinor", js_number(amounts.vatMinor));
  value.set("costMinor", js_number(amounts.costMinor));
  return value;
}

// {grossMinor, netMinor, vatMinor, costMinor}. Errors: vat_rate_invalid (checked first), invalid_amount.
val expense_amounts(double gross_minor, double vat_rate_bps, bool is_vat_deductible) {
  auto rate = safe_integer(vat_rate_bps);
  if (!rate) return error_result(unsafe_vat_rate());
  auto gross = safe_integer(gross_minor);
  if (!gross) {
    // The core checks the rate first: an out-of-range rate wins over an unusable gross.
    if (auto status = core::validate_vat_rate_bps(*rate); !status) return error_result(status.error());
    return error_result(unsafe_amount("grossMinor"));
  }
  auto amounts = rest::expense_amounts(*gross, *rate, is_vat_deductible);
  if (!amounts) return error_result(amounts.error());
  return ok_result(expense_amounts_value(*amounts));
}

// --- menu --------------------------------------------------------------------------------------------------

// A product {id, name, priceMinor, vatRateBps, active} and its option groups {id, name, minSelect, maxSelect,
// options: [{id, name, priceDeltaMinor}]} as the menu API shows them, checked as validate_product and
// validate_option_group check them. A price, rate or delta that is not a safe integer fails with that
// member's code and range (never quoting a stand-in), in the order the core checks; minSelect and maxSelect
// are counts, and one that is not a safe integer is out of range (below 0, below 1) with the core's message.
core::Result<rest::MenuProduct> read_product(const val& js) {
  auto price = integer_member(js, "priceMinor");
  auto rate = integer_member(js, "vatRateBps");
  rest::MenuProduct product{string_member(js, "id"), string_member(js, "name"), price.value_or(-1),
                            rate.value_or(-1), js["active"].as<bool>()};
  if (!rate) return unsafe_vat_rate();
  if (auto status = rest::validate_product(product); !status) {
    if (!price) return unsafe_amount("priceMinor");
    return status.error();
  }
  return product;
}

core::Result<rest::OptionGroup> read_option_group(const val& item) {
  rest::OptionGroup group{string_member(item, "id"),
                          string_member(item, "name"),
                          integer_member(item, "minSelect").value_or(-1),
                          integer_member(item, "maxSelect").value_or(0),
                          {}};
  const val options = item["options"];
  const std::size_t option_count = length_of(options);
  std::vector<std::optional<std::int64_t>> deltas;
  for (std::size_t j = 0; j < option_count; ++j) {
    const val option = options[j];
    deltas.push_back(integer_member(option, "priceDeltaMinor"));
    group.options.push_back(rest::MenuOption{string_member(option, "id"), string_member(option, "name"),
                                             deltas.back().value_or(-1)});
  }
  auto status = rest::validate_option_group(group);
  if (status) return group;
  // The core reports the first refused delta: the first that is unusable here or out of its range.
  if (status.error().code == "invalid_amount") {
    for (const auto& delta : deltas) {
      if (!delta) return unsafe_amount("priceDeltaMinor");
      if (!core::validate_amount_minor(*delta, "priceDeltaMinor")) break;
    }
  }
  return status.error();
}

// {unitPriceMinor, options: [{groupId, optionId, name, priceDeltaMinor}]}: what the server snapshots on a
// line for this product with these option ids. The product and groups are checked first (validate_product,
// validate_option_group), then price_item's codes: product_inactive, option_not_available,
// invalid_option_count, invalid_amount.
val price_item(const val& js_product, const val& js_groups, const val& js_option_ids) {
  auto product = read_product(js_product);
  if (!product) return error_result(product.error());
  std::vector<rest::OptionGroup> groups;
  const std::size_t group_count = length_of(js_groups);
  for (std::size_t i = 0; i < group_count; ++i) {
    auto group = read_option_group(js_groups[i]);
    if (!group) return error_result(group.error());
    groups.push_back(std::move(*group));
  }
  std::vector<std::string> chosen;
  const std::size_t count = length_of(js_option_ids);
  for (std::size_t i = 0; i < count; ++i) chosen.push_back(js_option_ids[i].as<std::string>());
  auto priced = rest::price_item(*product, groups, chosen);
  if (!priced) return error_result(priced.error());
  val options = val::array();
  for (std::size_t i = 0; i < priced->options.size(); ++i) {
    const rest::ChosenOption& option = priced->options[i];
    val item = val::object();
    item.set("groupId", option.groupId);
    item.set("optionId", option.optionId);
    item.set("name", option.name);
    item.set("priceDeltaMinor", js_number(option.priceDeltaMinor));
    options.set(i, item);
  }
  val value = val::object();
  value.set("unitPriceMinor", js_number(priced->unitPriceMinor));
  value.set("options", options);
  return ok_result(value);
}

// --- orders ------------------------------------------------------------------------------------------------

// Lines {lineId, productId, name, unitPriceMinor, quantity, vatRateBps}. When a line holds a number that is
// not a safe integer, the answer is the error order_totals would give with that number out of range: the
// error of an earlier line if there is one, else the first failing check of this line (quantity, rate, unit
// price), with the unusable number's own message.
core::Result<std::vector<rest::OrderLine>> read_order_lines(const val& js_lines) {
  std::vector<rest::OrderLine> lines;
  const std::size_t count = length_of(js_lines);
  lines.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const val item = js_lines[i];
    auto unit = integer_member(item, "unitPriceMinor");
    auto quantity = integer_member(item, "quantity");
    auto rate = integer_member(item, "vatRateBps");
    rest::OrderLine line{string_member(item, "lineId"), string_member(item, "productId"),
                         string_member(item, "name"),   unit.value_or(-1),
                         quantity.value_or(0),          rate.value_or(-1)};
    if (!unit || !quantity || !rate) {
      auto earlier = rest::order_totals(lines);
      if (!earlier) return earlier.error();
      // The stand-ins (-1, 0, -1) are out of range, so the core refuses this line; its code names the check.
      auto status = rest::validate_order_line(line);
      const std::string& code = status.error().code;
      if (code == "invalid_quantity" && !quantity) return unsafe_quantity();
      if (code == "vat_rate_invalid" && !rate) return unsafe_vat_rate();
      if (code == "invalid_amount" && !unit) return unsafe_amount("unitPriceMinor");
      return status.error();
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

// Payments {paymentId, amountMinor, method}, checked after the lines, as order_balance does: an unusable
// amount answers the error of the lines or of an earlier payment first.
core::Result<std::vector<rest::Payment>> read_payments(const val& js_payments,
                                                       std::span<const rest::OrderLine> lines) {
  std::vector<rest::Payment> payments;
  const std::size_t count = length_of(js_payments);
  payments.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const val item = js_payments[i];
    auto amount = integer_member(item, "amountMinor");
    if (!amount) {
      auto earlier = rest::order_balance(lines, payments);
      if (!earlier) return earlier.error();
      return unsafe_amount("amountMinor", 1);
    }
    payments.push_back(
        rest::Payment{string_member(item, "paymentId"), *amount, string_member(item, "method")});
  }
  return payments;
}

core::Result<rest::OrderBalance> balance_of(const val& js_lines, const val& js_payments) {
  auto lines = read_order_lines(js_lines);
  if (!lines) return lines.error();
  auto payments = read_payments(js_payments, *lines);
  if (!payments) return payments.error();
  return rest::order_balance(*lines, *payments);
}

val totals_value(const rest::OrderTotals& totals) {
  val lines = val::array();
  for (std::size_t i = 0; i < totals.lines.size(); ++i) {
    const rest::LineTotals& line = totals.lines[i];
    val item = val::object();
    item.set("lineId", line.lineId);
    item.set("grossMinor", js_number(line.split.grossMinor));
    item.set("netMinor", js_number(line.split.netMinor));
    item.set("vatMinor", js_number(line.split.vatMinor));
    lines.set(i, item);
  }
  val value = val::object();
  value.set("grossMinor", js_number(totals.grossMinor));
  value.set("netMinor", js_number(totals.netMinor));
  value.set("vatMinor", js_number(totals.vatMinor));
  value.set("items", lines);
  return value;
}

// {grossMinor, netMinor, vatMinor, items: [{lineId, grossMinor, netMinor, vatMinor}]}: `items` as in an
// order. Errors: invalid_quantity, vat_rate_invalid, invalid_amount.
val order_totals(const val& js_lines) {
  auto lines = read_order_lines(js_lines);
  if (!lines) return error_result(lines.error());
  auto totals = rest::order_totals(*lines);
  if (!totals) return error_result(totals.error());
  return ok_result(totals_value(*totals));
}

// {totals, paidMinor, dueMinor, overpaidMinor}. Errors: as order_totals; invalid_amount for a payment.
val order_balance(const val& js_lines, const val& js_payments) {
  auto balance = balance_of(js_lines, js_payments);
  if (!balance) return error_result(balance.error());
  val value = val::object();
  value.set("totals", totals_value(balance->totals));
  value.set("paidMinor", js_number(balance->paidMinor));
  value.set("dueMinor", js_number(balance->dueMinor));
  value.set("overpaidMinor", js_number(balance->overpaidMinor));
  return ok_result(value);
}

// null when `new_payment` may be taken on the order. Errors: as order_balance (the existing payments), then
// invalid_amount and payment_exceeds_due for the new payment (validate_new_payment).
val can_pay(const val& js_lines, const val& js_payments, const val& new_payment) {
  auto balance = balance_of(js_lines, js_payments);
  if (!balance) return error_result(balance.error());
  auto amount = integer_member(new_payment, "amountMinor");
  if (!amount) return error_result(unsafe_amount("amountMinor", 1));
  const rest::Payment payment{string_member(new_payment, "paymentId"), *amount,
                              string_member(new_payment, "method")};
  auto status = rest::validate_new_payment(*balance, payment);
  if (!status) return error_result(status.error());
  return ok_result(val::null());
}

// null when the payments cover the order. Errors: as order_balance, then order_not_paid (check_can_close).
val can_close(const val& js_lines, const val& js_payments) {
  auto balance = balance_of(js_lines, js_payments);
  if (!balance) return error_result(balance.error());
  auto status = rest::check_can_close(*balance);
  if (!status) return error_result(status.error());
  return ok_result(val::null());
}

// --- payables ----------------------------------------------------------------------------------------------

// "overdue" | "thisWeek" | "thisMonth" | "later". Errors: invalid_date (dueDate, then today).
val payable_bucket(const std::string& due_date, const std::string& today) {
  auto due = day_key(due_date, "dueDate");
  if (!due) return error_result(due.error());
  auto day = day_key(today, "today");
  if (!day) return error_result(day.error());
  return ok_result(val(std::string(rest::payable_bucket_key(rest::payable_bucket(*due, *day)))));
}

// The four groups [{key, items: [{expenseId, dueDate, amountMinor}], totalMinor}] in the order overdue,
// thisWeek, thisMonth, later. group_payables trusts validated expenses; here the inputs are checked first.
// Errors: invalid_date for today, then per item in order invalid_date (dueDate) and invalid_amount
// (amountMinor outside 0..10^15 or not a safe integer); invalid_amount when all amounts together exceed 2^53
// - 1, so that every group total is an exact JS number.
val group_payables(const val& js_payables, const std::string& today) {
  auto day = day_key(today, "today");
  if (!day) return error_result(day.error());
  std::vector<rest::Payable> payables;
  const std::size_t count = length_of(js_payables);
  payables.reserve(count);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const val item = js_payables[i];
    const std::string where = "payables[" + std::to_string(i) + "].";
    auto due = day_key(string_member(item, "dueDate"), where + "dueDate");
    if (!due) return error_result(due.error());
    const std::string amount_field = where + "amountMinor";
    auto amount = integer_member(item, "amountMinor");
    if (!amount) return error_result(unsafe_amount(amount_field));
    if (auto status = core::validate_amount_minor(*amount, amount_field); !status) {
      return error_result(status.error());
    }
    sum += *amount;  // each at most 10^15 and the sum at most 2^53 so far: no overflow
    if (sum > platform_wasm::kMaxSafeInteger) {
      return error_result(
          core::make_error("invalid_amount", "the payables total exceeds 2^53 - 1 minor units"));
    }
    payables.push_back(rest::Payable{string_member(item, "expenseId"), *due, *amount});
  }
  const auto groups = rest::group_payables(payables, *day);
  val value = val::array();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    val items = val::array();
    for (std::size_t i = 0; i < groups[g].items.size(); ++i) {
      const rest::Payable& payable = groups[g].items[i];
      val item = val::object();
      item.set("expenseId", payable.expenseId);
      item.set("dueDate", core::format_day_key(payable.dueDate));
      item.set("amountMinor", js_number(payable.amountMinor));
      items.set(i, item);
    }
    val group = val::object();
    group.set("key", groups[g].key);
    group.set("items", items);
    group.set("totalMinor", js_number(groups[g].totalMinor));
    value.set(g, group);
  }
  return ok_result(value);
}

// --- income ------------------------------------------------------------------------------------------------

val optional_number(const std::optional<std::int64_t>& number) {
  return number ? js_number(*number) : val::null();
}

// `row`: {businessDate, channel, grossMinor, commissionMinor, zReportMinor (a number or null)}, the bindings
// having applied the defaults (commissionMinor 0, zReportMinor null). Answers the row with netMinor and
// zReportDiffMinor (null without a Z report).
// Errors: invalid_date (row.businessDate, then currentBusinessDate), then validate_income's in its order:
// business_date_in_future, invalid_field (channel), invalid_amount (grossMinor, commissionMinor,
// zReportMinor), commission_exceeds_gross.
val validate_income(const val& row, const std::string& current_business_date) {
  auto date = day_key(string_member(row, "businessDate"), "businessDate");
  if (!date) return error_result(date.error());
  auto today = day_key(current_business_date, "currentBusinessDate");
  if (!today) return error_result(today.error());

  struct Amount {
    const char* field;
    bool present;
    std::optional<std::int64_t> value;
  };
  const val z = row["zReportMinor"];
  std::array<Amount, 3> amounts{{
      {"grossMinor", true, integer_member(row, "grossMinor")},
      {"commissionMinor", true, integer_member(row, "commissionMinor")},
      {"zReportMinor", !z.isNull(), z.isNull() ? std::nullopt : safe_integer(z.as<double>())},
  }};
  // Unusable numbers go in as -1, which the core refuses as invalid_amount at that member's turn.
  rest::IncomeInput input{*date, string_member(row, "channel"), amounts[0].value.value_or(-1),
                          amounts[1].value.value_or(-1), std::nullopt};
  if (amounts[2].present) input.zReportMinor = amounts[2].value.value_or(-1);

  auto income = rest::validate_income(input, *today);
  if (!income) {
    if (income.error().code == "invalid_amount") {
      // The core checks the amounts in this order; the first refused one is the one it reported.
      for (const Amount& amount : amounts) {
        if (!amount.present) continue;
        if (!amount.value) return error_result(unsafe_amount(amount.field));
        if (!core::validate_amount_minor(*amount.value)) break;
      }
    }
    return error_result(income.error());
  }
  val value = val::object();
  value.set("businessDate", core::format_day_key(income->businessDate));
  value.set("channel", income->channel);
  value.set("grossMinor", js_number(income->grossMinor));
  value.set("commissionMinor", js_number(income->commissionMinor));
  value.set("zReportMinor", optional_number(income->zReportMinor));
  value.set("netMinor", js_number(income->netMinor));
  value.set("zReportDiffMinor", optional_number(income->zReportDiffMinor));
  return ok_result(value);
}

// --- shifts ------------------------------------------------------------------------------------------------

// {openingFloatMinor, cashPaymentsMinor, expectedCashMinor, countedCashMinor, differenceMinor}. `payments`:
// [{method, amountMinor}]; non-cash payments are not looked at, whatever their amount.
// Errors: invalid_amount, in the core's order: opening float, counted cash, then the cash payments.
val count_shift_cash(double opening_float_minor, const val& js_payments, double counted_cash_minor) {
  auto opening = safe_integer(opening_float_minor);
  if (!opening) return error_result(unsafe_amount("openingFloatMinor"));
  if (auto status = core::validate_amount_minor(*opening, "openingFloatMinor"); !status) {
    return error_result(status.error());
  }
  auto counted = safe_integer(counted_cash_minor);
  if (!counted) return error_result(unsafe_amount("countedCashMinor"));
  std::vector<rest::ShiftPayment> payments;
  const std::size_t count = length_of(js_payments);
  payments.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const val item = js_payments[i];
    std::string method = string_member(item, "method");
    auto amount = integer_member(item, "amountMinor");
    if (!amount && rest::is_cash_method(method)) {
      auto earlier = rest::count_shift_cash(*opening, payments, *counted);
      if (!earlier) return error_result(earlier.error());
      return error_result(unsafe_amount("payment amount"));
    }
    payments.push_back(rest::ShiftPayment{std::move(method), amount.value_or(0)});
  }
  auto cash = rest::count_shift_cash(*opening, payments, *counted);
  if (!cash) return error_result(cash.error());
  val value = val::object();
  value.set("openingFloatMinor", js_number(cash->openingFloatMinor));
  value.set("cashPaymentsMinor", js_number(cash->cashPaymentsMinor));
  value.set("expectedCashMinor", js_number(cash->expectedCashMinor));
  value.set("countedCashMinor", js_number(cash->countedCashMinor));
  value.set("differenceMinor", js_number(cash->differenceMinor));
  return ok_result(value);
}

// --- expense CSV import ------------------------------------------------------------------------------------

val optional_string(const std::optional<std::string>& text) {
  return text ? val(*text) : val::null();
}

// {rows: [{row, category, vendor, accrualDate, dueDate, paidAt, paymentMethod, isVatDeductible, vatRateBps,
// grossMinor, netMinor, vatMinor, costMinor}], errors: [{row, column, code, message}], total, failed}.
// vendor, dueDate and paidAt are null when empty; paidAt is normalised to UTC (`2026-02-01T10:00:00.000Z`).
// Errors for the whole file: invalid_csv, invalid_csv_header.
val parse_expense_csv(const std::string& text) {
  auto imported = rest::parse_expense_csv(text);
  if (!imported) return error_result(imported.error());
  val rows = val::array();
  for (std::size_t i = 0; i < imported->rows.size(); ++i) {
    const rest::ExpenseCsvRow& row = imported->rows[i];
    const rest::ExpenseRecord& expense = row.expense;
    val item = val::object();
    item.set("row", static_cast<double>(row.row));
    item.set("category", row.category);
    item.set("vendor", optional_string(row.vendor));
    item.set("accrualDate", core::format_day_key(expense.accrualDate));
    item.set("dueDate", expense.dueDate ? val(core::format_day_key(*expense.dueDate)) : val::null());
    item.set("paidAt",
             expense.paidAtUnixMs ? val(core::format_timestamp(*expense.paidAtUnixMs)) : val::null());
    item.set("paymentMethod", expense.paymentMethod);
    item.set("isVatDeductible", expense.isVatDeductible);
    item.set("vatRateBps", js_number(expense.vatRateBps));
    item.set("grossMinor", js_number(expense.amounts.grossMinor));
    item.set("netMinor", js_number(expense.amounts.netMinor));
    item.set("vatMinor", js_number(expense.amounts.vatMinor));
    item.set("costMinor", js_number(expense.amounts.costMinor));
    rows.set(i, item);
  }
  val errors = val::array();
  for (std::size_t i = 0; i < imported->errors.size(); ++i) {
    const rest::CsvRowError& error = imported->errors[i];
    val item = val::object();
    item.set("row", static_cast<double>(error.row));
    item.set("column", error.column);
    item.set("code", error.code);
    item.set("message", error.message);
    errors.set(i, item);
  }
  val value = val::object();
  value.set("rows", rows);
  value.set("errors", errors);
  value.set("total", static_cast<double>(imported->total));
  value.set("failed", static_cast<double>(imported->failed));
  return ok_result(value);
}

}  // namespace

EMSCRIPTEN_BINDINGS(platform_restaurant) {
  emscripten::function("vatSplit", &vat_split);
  emscripten::function("businessDate", &business_date);
  emscripten::function("addDays", &add_days);
  emscripten::function("expenseAmounts", &expense_amounts);
  emscripten::function("priceItem", &price_item);
  emscripten::function("orderTotals", &order_totals);
  emscripten::function("orderBalance", &order_balance);
  emscripten::function("canPay", &can_pay);
  emscripten::function("canClose", &can_close);
  emscripten::function("payableBucket", &payable_bucket);
  emscripten::function("groupPayables", &group_payables);
  emscripten::function("validateIncome", &validate_income);
  emscripten::function("countShiftCash", &count_shift_cash);
  emscripten::function("parseExpenseCsv", &parse_expense_csv);
}
