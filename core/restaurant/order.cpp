#include "core/restaurant/order.h"

#include <string>

#include "core/restaurant/amount_sum.h"

namespace core::restaurant {

Status validate_order_line(const OrderLine& line) {
  if (line.quantity < 1 || line.quantity > kMaxLineQuantity) {
    return make_error("invalid_quantity",
                      "quantity must be a whole number from 1 to " + std::to_string(kMaxLineQuantity));
  }
  CORE_TRY(validate_vat_rate_bps(line.vatRateBps));
  CORE_TRY(validate_amount_minor(line.unitPriceMinor, "unitPriceMinor"));
  // unit <= 10^15 and quantity <= 10^5 keep the product below 10^20 > int64: compare by division instead.
  if (line.unitPriceMinor > 0 && line.quantity > kMaxAmountMinor / line.unitPriceMinor) {
    return make_error("invalid_amount", "the line total exceeds the largest accepted amount");
  }
  return {};
}

Result<VatSplit> line_totals(const OrderLine& line) {
  CORE_TRY(validate_order_line(line));
  return split_vat(line.unitPriceMinor * line.quantity, line.vatRateBps);
}

Result<OrderTotals> order_totals(std::span<const OrderLine> lines) {
  OrderTotals totals;
  totals.lines.reserve(lines.size());
  for (const OrderLine& line : lines) {
    auto split = line_totals(line);
    if (!split) return split.error();
    auto gross = add_amount(totals.grossMinor, split->grossMinor, "the order total");
    if (!gross) return gross.error();
    // net and vat are each at most the gross, so their sums cannot overflow once the gross sum fits.
    totals.grossMinor = *gross;
    totals.netMinor += split->netMinor;
    totals.vatMinor += split->vatMinor;
    totals.lines.push_back(LineTotals{line.lineId, *split});
  }
  return totals;
}

Result<OrderBalance> order_balance(std::span<const OrderLine> lines, std::span<const Payment> payments) {
  auto totals = order_totals(lines);
  if (!totals) return totals.error();
  OrderBalance balance;
  balance.totals = std::move(*totals);
  for (const Payment& payment : payments) {
    if (payment.amountMinor < 1) return make_error("invalid_amount", "amountMinor must be at least 1");
    CORE_TRY(validate_amount_minor(payment.amountMinor, "amountMinor"));
    auto paid = add_amount(balance.paidMinor, payment.amountMinor, "the paid total");
    if (!paid) return paid.error();
    balance.paidMinor = *paid;
  }
  const std::int64_t gross = balance.totals.grossMinor;
  balance.dueMinor = gross > balance.paidMinor ? gross - balance.paidMinor : 0;
  balance.overpaidMinor = balance.paidMinor > gross ? balance.paidMinor - gross : 0;
  return balance;
}

Status validate_new_payment(const OrderBalance& balance, const Payment& payment) {
  if (payment.amountMinor < 1) return make_error("invalid_amount", "amountMinor must be at least 1");
  CORE_TRY(validate_amount_minor(payment.amountMinor, "amountMinor"));
  if (payment.amountMinor > balance.dueMinor) {
    return make_error("payment_exceeds_due", "amountMinor " + std::to_string(payment.amountMinor) +
                                                 " exceeds the amount due " +
                                                 std::to_string(balance.dueMinor));
  }
  return {};
}

Status check_order_open(std::string_view status) {
  if (status == "open") return {};
  return make_error("order_not_open", "the order is closed");
}

Status check_order_version(std::int64_t current, std::int64_t sent) {
  if (sent == current) return {};
  return make_error("invalid_version", "the order is at version " + std::to_string(current) +
                                           ", the request was made against version " + std::to_string(sent));
}

Status check_can_close(const OrderBalance& balance) {
  if (balance.dueMinor > 0) {
    return make_error("order_not_paid",
                      "the order still has " + std::to_string(balance.dueMinor) + " minor units due");
  }
  return {};
}

}  // namespace core::restaurant
