#include "core/restaurant/expense.h"

#include "core/money.h"
#include "core/restaurant/text_field.h"

namespace core::restaurant {

Result<ExpenseAmounts> expense_amounts(std::int64_t gross_minor, std::int64_t vat_rate_bps,
                                       bool is_vat_deductible) {
  auto split = split_vat(gross_minor, vat_rate_bps);
  if (!split) return split.error();
  return ExpenseAmounts{split->grossMinor, split->netMinor, split->vatMinor,
                        is_vat_deductible ? split->netMinor : split->grossMinor};
}

Result<CivilDate> parse_expense_date(std::string_view text, std::string_view field) {
  auto date = parse_day_key(text);
  if (!date) return make_error(date.error().code, std::string(field) + ": " + date.error().message);
  return *date;
}

Status check_expense_payment(std::string_view paid_at, std::int64_t gross_minor, std::int64_t amount_minor) {
  if (!paid_at.empty())
    return make_error("already_paid", "expense was already paid at " + std::string(paid_at));
  if (amount_minor != gross_minor)
    return make_error("amount_mismatch", "amountMinor must equal the expense's grossMinor (" +
                                             std::to_string(gross_minor) +
                                             "); partial payments are not supported");
  return {};
}

Result<ExpenseRecord> validate_expense(const ExpenseInput& input) {
  auto amounts = expense_amounts(input.grossMinor, input.vatRateBps, input.isVatDeductible);
  if (!amounts) return amounts.error();
  ExpenseRecord record;
  record.amounts = *amounts;
  record.vatRateBps = input.vatRateBps;
  record.isVatDeductible = input.isVatDeductible;

  auto accrual = parse_expense_date(input.accrualDate, "accrualDate");
  if (!accrual) return accrual.error();
  record.accrualDate = *accrual;
  if (input.dueDate) {
    auto due = parse_expense_date(*input.dueDate, "dueDate");
    if (!due) return due.error();
    record.dueDate = *due;
  }
  if (input.paidAt) {
    auto paid = parse_timestamp(*input.paidAt);
    if (!paid) return make_error(paid.error().code, "paidAt: " + paid.error().message);
    record.paidAtUnixMs = *paid;
  }
  if (input.paymentMethod) {
    auto method = trimmed_text_field(*input.paymentMethod, "paymentMethod", kMaxPaymentMethodChars);
    if (!method) return method.error();
    record.paymentMethod = std::move(*method);
  } else {
    record.paymentMethod = std::string(kDefaultPaymentMethod);
  }
  return record;
}

}  // namespace core::restaurant
