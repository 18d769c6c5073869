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

std::optional<ExpenseRecord> check_expense(const ExpenseInput& input,
                                           std::vector<ExpenseFieldError>& errors) {
  const std::size_t errors_before = errors.size();
  auto check = [&](std::string_view field, const Status& st) {
    if (!st.ok()) errors.push_back({field, st.error()});
  };
  ExpenseRecord record;
  record.vatRateBps = input.vatRateBps;
  record.isVatDeductible = input.isVatDeductible;
  check("vatRateBps", validate_vat_rate_bps(input.vatRateBps));
  check("grossMinor", validate_amount_minor(input.grossMinor, "grossMinor"));

  auto accrual = parse_expense_date(input.accrualDate, "accrualDate");
  if (accrual)
    record.accrualDate = *accrual;
  else
    errors.push_back({"accrualDate", accrual.error()});
  if (input.dueDate) {
    auto due = parse_expense_date(*input.dueDate, "dueDate");
    if (due)
      record.dueDate = *due;
    else
      errors.push_back({"dueDate", due.error()});
  }
  if (input.paidAt) {
    auto paid = parse_timestamp(*input.paidAt);
    if (paid)
      record.paidAtUnixMs = *paid;
    else
      errors.push_back({"paidAt", make_error(paid.error().code, "paidAt: " + paid.error().message)});
  }
  if (input.paymentMethod) {
    auto method = trimmed_text_field(*input.paymentMethod, "paymentMethod", kMaxPaymentMethodChars);
    if (method)
      record.paymentMethod = std::move(*method);
    else
      errors.push_back({"paymentMethod", method.error()});
  } else {
    record.paymentMethod = std::string(kDefaultPaymentMethod);
  }
  if (errors.size() != errors_before) return std::nullopt;

  // The rate and the gross are valid here, so the split cannot fail; its error is kept should that change.
  auto amounts = expense_amounts(input.grossMinor, input.vatRateBps, input.isVatDeductible);
  if (!amounts) {
    errors.push_back({"grossMinor", amounts.error()});
    return std::nullopt;
  }
  record.amounts = *amounts;
  return record;
}

Result<ExpenseRecord> validate_expense(const ExpenseInput& input) {
  std::vector<ExpenseFieldError> errors;
  auto record = check_expense(input, errors);
  if (!record) return errors.front().error;
  return std::move(*record);
}

}  // namespace core::restaurant
