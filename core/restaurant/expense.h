#pragma once
// Expenses (spec document 3, "Expense"): the VAT breakdown the server derives from a VAT-inclusive gross,
// the cost that counts in reports, and the checks on the calendar dates of an obligation.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/date.h"
#include "core/result.h"

namespace core::restaurant {

inline constexpr std::size_t kMaxPaymentMethodChars = 64;
inline constexpr std::string_view kDefaultPaymentMethod = "cash";

// The derived amounts of an expense. grossMinor == netMinor + vatMinor. costMinor is what reports count as
// the cost: the net when the VAT is deductible (reclaimed from the tax office), the whole gross when it is
// not ("non-deductible VAT stays in the cost").
struct ExpenseAmounts {
  std::int64_t grossMinor = 0;
  std::int64_t netMinor = 0;
  std::int64_t vatMinor = 0;
  std::int64_t costMinor = 0;

  friend bool operator==(const ExpenseAmounts&, const ExpenseAmounts&) = default;
};

// Errors: `vat_rate_invalid` (checked first), `invalid_amount` for a gross outside 0..kMaxAmountMinor.
Result<ExpenseAmounts> expense_amounts(std::int64_t gross_minor, std::int64_t vat_rate_bps,
                                       bool is_vat_deductible);

// An expense as read from a request: dates still as text, optional fields as sent (nullopt = missing or
// null). Any netMinor/vatMinor the client sent is not part of the input: the server derives them.
struct ExpenseInput {
  std::int64_t grossMinor = 0;
  std::int64_t vatRateBps = 0;
  bool isVatDeductible = true;
  std::string accrualDate;                   // YYYY-MM-DD, required
  std::optional<std::string> dueDate;        // YYYY-MM-DD
  std::optional<std::string> paidAt;         // RFC 3339 timestamp with a zone
  std::optional<std::string> paymentMethod;  // default `cash`
};

// Whether an expense is a payable: it has a due date and is not paid yet. Payables are what the payables
// board lists and what the edge's payables index holds; paying one (or creating it paid) takes it off.
inline constexpr bool is_payable(bool has_due_date, bool is_paid) {
  return has_due_date && !is_paid;
}

// A valid expense's rule-bearing fields (branch, category, vendor and receipt are the edge's).
struct ExpenseRecord {
  CivilDate accrualDate;
  std::optional<CivilDate> dueDate;
  std::optional<std::int64_t> paidAtUnixMs;
  std::string paymentMethod;  // trimmed
  bool isVatDeductible = true;
  std::int64_t vatRateBps = 0;
  ExpenseAmounts amounts;

  // Unpaid with a due date: listed by the payables board.
  bool is_payable() const { return restaurant::is_payable(dueDate.has_value(), paidAtUnixMs.has_value()); }
};

// Validates an expense and derives its amounts. No order is enforced between accrualDate, dueDate and paidAt:
// prepayments (paid before accrual) and bills entered late are real.
// Errors, in this order: `vat_rate_invalid`; `invalid_amount`; `invalid_date` for accrualDate or dueDate (the
// message names the field); `invalid_timestamp` for paidAt; `invalid_field` for a paymentMethod that is empty
// after trimming or longer than 64 characters.
Result<ExpenseRecord> validate_expense(const ExpenseInput& input);

// One failed check of check_expense: the ExpenseInput member it concerns, by its wire name (`vatRateBps`,
// `grossMinor`, `accrualDate`, `dueDate`, `paidAt`, `paymentMethod`), and the error validate_expense gives.
struct ExpenseFieldError {
  std::string_view field;
  Error error;
};

// validate_expense's checks, every member checked even after one failed (the CSV import reports each bad
// cell): appends one entry per failing member to `errors`, in validate_expense's order, and returns the
// record only when none failed. validate_expense answers the first of these errors.
std::optional<ExpenseRecord> check_expense(const ExpenseInput& input, std::vector<ExpenseFieldError>& errors);

// Whether a payment of `amount_minor` may settle an expense (POST /payables/{id}/pay): the expense is unpaid
// (`paid_at` empty) and the amount is its whole gross (partial payments are not supported).
// Errors: `already_paid` (naming paid_at), then `amount_mismatch`.
Status check_expense_payment(std::string_view paid_at, std::int64_t gross_minor, std::int64_t amount_minor);

// Parses one of the expense's day-key fields; the error message starts with the field name.
// Errors: `invalid_date`.
Result<CivilDate> parse_expense_date(std::string_view text, std::string_view field);

}  // namespace core::restaurant
