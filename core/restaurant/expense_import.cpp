#include "core/restaurant/expense_import.h"

#include <cstdint>

#include "core/ascii.h"
#include "core/money.h"
#include "core/restaurant/csv.h"
#include "core/restaurant/text_field.h"

namespace core::restaurant {
namespace {

enum Column { kAccrual, kCategory, kVendor, kGross, kVat, kDue, kPaidAt, kMethod, kDeductible };

// A plain decimal integer: optional '-', 1 to 18 digits (so it fits int64). Anything else (a decimal point,
// an exponent, a '+', thousands separators) is not an integer here.
std::optional<std::int64_t> parse_integer(std::string_view s) {
  bool negative = false;
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 18) return std::nullopt;
  std::int64_t value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return negative ? -value : value;
}

std::optional<bool> parse_flag(std::string_view s) {
  if (ascii_iequals(s, "true") || s == "1") return true;
  if (ascii_iequals(s, "false") || s == "0") return false;
  return std::nullopt;
}

// Validates one data record whose cells are already in column order. Appends to `errors` and answers the row
// only when it had none.
std::optional<ExpenseCsvRow> parse_row(std::size_t row, const std::array<std::string_view, 9>& cell,
                                       std::vector<CsvRowError>& errors) {
  const std::size_t errors_before = errors.size();
  auto fail = [&](Column column, std::string code, std::string message) {
    errors.push_back(
        CsvRowError{row, std::string(kExpenseCsvColumns[column]), std::move(code), std::move(message)});
  };
  auto fail_error = [&](Column column, const Error& e) { fail(column, e.code, e.message); };
  auto require = [&](Column column) {
    if (!cell[column].empty()) return true;
    fail(column, "missing_field", std::string(kExpenseCsvColumns[column]) + " is required");
    return false;
  };

  ExpenseCsvRow out;
  out.row = row;
  ExpenseRecord& expense = out.expense;

  if (require(kAccrual)) {
    auto d = parse_expense_date(cell[kAccrual], "accrualDate");
    if (d)
      expense.accrualDate = *d;
    else
      fail_error(kAccrual, d.error());
  }
  if (require(kCategory)) {
    auto c = trimmed_text_field(cell[kCategory], "category", kMaxCsvNameChars);
    if (c)
      out.category = std::move(*c);
    else
      fail_error(kCategory, c.error());
  }
  if (!cell[kVendor].empty()) {
    auto v = trimmed_text_field(cell[kVendor], "vendor", kMaxCsvNameChars);
    if (v)
      out.vendor = std::move(*v);
    else
      fail_error(kVendor, v.error());
  }
  // Plain values (not optionals): the amounts are only used when no error was recorded, i.e. both parsed.
  std::int64_t gross = 0;
  if (require(kGross)) {
    auto parsed = parse_integer(cell[kGross]);
    if (!parsed) {
      fail(kGross, "invalid_amount", "grossMinor must be a whole number of minor units");
    } else if (auto s = validate_amount_minor(*parsed, "grossMinor"); !s) {
      fail_error(kGross, s.error());
    } else {
      gross = *parsed;
    }
  }
  std::int64_t bps = 0;
  if (require(kVat)) {
    auto parsed = parse_integer(cell[kVat]);
    if (!parsed) {
      fail(kVat, "vat_rate_invalid", "vatRateBps must be a whole number of basis points (2000 = 20 %)");
    } else if (auto s = validate_vat_rate_bps(*parsed); !s) {
      fail_error(kVat, s.error());
    } else {
      bps = *parsed;
    }
  }
  if (!cell[kDue].empty()) {
    auto d = parse_expense_date(cell[kDue], "dueDate");
    if (d)
      expense.dueDate = *d;
    else
      fail_error(kDue, d.error());
  }
  if (!cell[kPaidAt].empty()) {
    auto t = parse_timestamp(cell[kPaidAt]);
    if (t)
      expense.paidAtUnixMs = *t;
    else
      fail(kPaidAt, t.error().code, "paidAt: " + t.error().message);
  }
  expense.paymentMethod = std::string(kDefaultPaymentMethod);
  if (!cell[kMethod].empty()) {
    auto m = trimmed_text_field(cell[kMethod], "paymentMethod", kMaxPaymentMethodChars);
    if (m)
      expense.paymentMethod = std::move(*m);
    else
      fail_error(kMethod, m.error());
  }
  if (!cell[kDeductible].empty()) {
    auto flag = parse_flag(cell[kDeductible]);
    if (flag)
      expense.isVatDeductible = *flag;
    else
      fail(kDeductible, "invalid_field", "isVatDeductible must be true or false");
  }

  if (errors.size() != errors_before) return std::nullopt;
  expense.vatRateBps = bps;
  auto amounts = expense_amounts(gross, bps, expense.isVatDeductible);  // both checked above: cannot fail
  if (!amounts) {
    errors.push_back(CsvRowError{row, std::string(kExpenseCsvColumns[kGross]), amounts.error().code,
                                 amounts.error().message});
    return std::nullopt;
  }
  expense.amounts = *amounts;
  return out;
}

Error header_error(std::string message) {
  return make_error("invalid_csv_header", std::move(message));
}

}  // namespace

Result<ExpenseCsvImport> parse_expense_csv(std::string_view text) {
  auto records = parse_csv(text);
  if (!records) return records.error();
  if (records->empty()) return header_error("the file is empty; the first line must name the columns");

  // position_of[column] = index of that column in the file's records.
  std::array<std::size_t, 9> position_of;
  position_of.fill(SIZE_MAX);
  const std::vector<std::string>& header = records->front().fields;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string_view name = trim_ascii_space(header[i]);
    std::size_t column = 0;
    while (column < kExpenseCsvColumns.size() && kExpenseCsvColumns[column] != name) ++column;
    if (column == kExpenseCsvColumns.size()) {
      return header_error("unknown column '" + std::string(name.substr(0, 64)) + "'");
    }
    if (position_of[column] != SIZE_MAX)
      return header_error("column '" + std::string(name) + "' appears twice");
    position_of[column] = i;
  }
  for (std::size_t column = 0; column < kExpenseCsvColumns.size(); ++column) {
    if (position_of[column] == SIZE_MAX) {
      return header_error("missing column '" + std::string(kExpenseCsvColumns[column]) + "'");
    }
  }

  ExpenseCsvImport result;
  for (std::size_t r = 1; r < records->size(); ++r) {
    const CsvRecord& record = (*records)[r];
    if (record.fields.size() == 1 && trim_ascii_space(record.fields[0]).empty()) continue;  // a blank line
    ++result.total;
    if (record.fields.size() != header.size()) {
      result.errors.push_back(CsvRowError{r, "", "invalid_row",
                                          "line " + std::to_string(record.line) + " has " +
                                              std::to_string(record.fields.size()) + " fields, the header " +
                                              std::to_string(header.size())});
      ++result.failed;
      continue;
    }
    std::array<std::string_view, 9> cells;
    for (std::size_t column = 0; column < cells.size(); ++column) {
      cells[column] = trim_ascii_space(record.fields[position_of[column]]);
    }
    auto row = parse_row(r, cells, result.errors);
    if (row) {
      result.rows.push_back(std::move(*row));
    } else {
      ++result.failed;
    }
  }
  return result;
}

}  // namespace core::restaurant
