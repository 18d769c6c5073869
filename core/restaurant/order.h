#pragma once
// Order totals and payments (spec document 3, "Order" and "Payment"; spec/DECISIONS.md: "Order totals
// compute VAT per line"). The same functions run on the edge and in the offline till, so both show the
// figures the server stores.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/money.h"
#include "core/result.h"

namespace core::restaurant {

// A line as snapshotted when it was added: later menu edits do not change an open order.
struct OrderLine {
  std::string lineId;
  std::string productId;
  std::string name;
  std::int64_t unitPriceMinor = 0;  // VAT-inclusive
  std::int64_t quantity = 0;        // whole units, >= 1
  std::int64_t vatRateBps = 0;
};

// One line's gross (unit price x quantity) split into net and VAT.
struct LineTotals {
  std::string lineId;
  VatSplit split;

  friend bool operator==(const LineTotals&, const LineTotals&) = default;
};

// Order gross, net and VAT are the sums of the per-line splits, so the order VAT can differ by a few minor
// units from split_vat(order gross) when lines carry different rates or round differently.
struct OrderTotals {
  std::int64_t grossMinor = 0;
  std::int64_t netMinor = 0;
  std::int64_t vatMinor = 0;
  std::vector<LineTotals> lines;  // in the order of the input lines
};

struct Payment {
  std::string paymentId;
  std::int64_t amountMinor = 0;
  std::string method;
};

// What an order costs, what has been paid and what is still due.
struct OrderBalance {
  OrderTotals totals;
  std::int64_t paidMinor = 0;
  // max(0, gross - paid).
  std::int64_t dueMinor = 0;
  // max(0, paid - gross): only when a line was removed after a payment (payments never exceed the due).
  std::int64_t overpaidMinor = 0;
};

// Largest quantity of one line; a guard against typos, far above any table's order.
inline constexpr std::int64_t kMaxLineQuantity = 100'000;

// Ok when the line can be priced.
// Errors: `invalid_quantity` unless 1 <= quantity <= kMaxLineQuantity; `vat_rate_invalid` for a rate outside
// 0..10000; `invalid_amount` for a unit price outside 0..kMaxAmountMinor or a line gross above it.
Status validate_order_line(const OrderLine& line);

// The line's gross (unitPriceMinor * quantity) split at its rate. Errors: as validate_order_line.
Result<VatSplit> line_totals(const OrderLine& line);

// Per-line splits and their sums. An empty order totals 0.
// Errors: the first invalid line's error (as validate_order_line); `invalid_amount` when a sum exceeds
// kMaxAmountMinor.
Result<OrderTotals> order_totals(std::span<const OrderLine> lines);

// Totals, the paid sum and what is still due.
// Errors: as order_totals; `invalid_amount` for a stored payment amount outside 1..kMaxAmountMinor or a
// paid sum above kMaxAmountMinor.
Result<OrderBalance> order_balance(std::span<const OrderLine> lines, std::span<const Payment> payments);

// Whether a new payment may be applied to an order with this balance. Policy: no tips and no change through
// payments; a payment may cover at most what is still due, so the order can never be paid twice over.
// Errors: `invalid_amount` unless 1 <= amountMinor <= kMaxAmountMinor; `payment_exceeds_due` when
// amountMinor > dueMinor (this includes any payment on an order with nothing due).
Status validate_new_payment(const OrderBalance& balance, const Payment& payment);

// Order states (spec document 3): an `open` order takes line edits, payments and its close; a `closed` one
// takes no write. Ok when `status` is `open`. Errors: `order_not_open`.
Status check_order_open(std::string_view status);

// Optimistic locking (versions like Square's): a line edit names the version it was made against.
// Ok when `sent` is `current`. Errors: `invalid_version`, the message naming both versions.
Status check_order_version(std::int64_t current, std::int64_t sent);

// Ok when the payments cover the total (dueMinor == 0); an empty order (total 0) can close.
// Errors: `order_not_paid` otherwise, with the amount due in the message.
Status check_can_close(const OrderBalance& balance);

}  // namespace core::restaurant
