#include "core/restaurant/expense_import.h"

#include <algorithm>
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

// The column of an ExpenseInput member: the CSV header uses the members' wire names.
std::size_t column_of(std::string_view field) {
  std::size_t column = 0;
  while (column < kExpenseCsvColumns.size() && kExpenseCsvColumns[column] != field) ++column;
  return column;
}

// Validates one data record whose cells are already in column order. The cells are read here (required
// cells, whole numbers, the flag, the category and vendor names); the expense rules are
// core::restaurant::check_expense's, as for POST /expenses. Appends the row's errors to `errors` in column
// order, at most one per column, and answers the row only when it had none.
std::optional<ExpenseCsvRow> parse_row(std::size_t row, const std::array<std::string_view, 9>& cell,
                                       std::vector<CsvRowError>& errors) {
  std::vector<CsvRowError> found;
  std::array<bool, 9> failed{};
  auto fail = [&](std::size_t column, std::string code, std::string message) {
    if (column >= failed.size() || failed[column]) return;  // the first problem of a cell is its error
    failed[column] = true;
    found.push_back(
        CsvRowError{row, std::string(kExpenseCsvColumns[column]), std::move(code), std::move(message)});
  };
  auto require = [&](Column column) {
    if (!cell[column].empty()) return true;
    fail(column, "missing_field", std::string(kExpenseCsvColumns[column]) + " is required");
    return false;
  };
  auto optional_cell = [&](Column column) {
    return cell[column].empty() ? std::nullopt : std::optional<std::string>(cell[column]);
  };

  ExpenseCsvRow out;
  out.row = row;
  ExpenseInput in;
  if (require(kAccrual)) in.accrualDate = std::string(cell[kAccrual]);
  if (require(kCategory)) {
    auto c = trimmed_text_field(cell[kCategory], "category", kMaxCsvNameChars);
    if (c)
      out.category = std::move(*c);
    else
      fail(kCategory, c.error().code, c.error().message);
  }
  if (!cell[kVendor].empty()) {
    auto v = trimmed_text_field(cell[kVendor], "vendor", kMaxCsvNameChars);
    if (v)
      out.vendor = std::move(*v);
    else
      fail(kVendor, v.error().code, v.error().message);
  }
  if (require(kGross)) {
    if (auto parsed = parse_integer(cell[kGross]))
      in.grossMinor = *parsed;
    else
      fail(kGross, "invalid_amount", "grossMinor must be a whole number of minor units");
  }
  if (require(kVat)) {
    if (auto parsed = parse_integer(cell[kVat]))
      in.vatRateBps = *parsed;
    else
      fail(kVat, "vat_rate_invalid", "vatRateBps must be a whole number of basis points (2000 = 20 %)");
  }
  in.dueDate = optional_cell(kDue);
  in.paidAt = optional_cell(kPaidAt);
  in.paymentMethod = optional_cell(kMethod);
  if (!cell[kDeductible].empty()) {
    auto flag = parse_flag(cell[kDeductible]);
    if (flag)
      in.isVatDeductible = *flag;
    else
      fail(kDeductible, "invalid_field", "isVatDeductible must be true or false");
  }

  // A cell that could not be read keeps its first error; the rules run on what the others hold.
  std::vector<ExpenseFieldError> rule_errors;
  auto expense = check_expense(in, rule_errors);
  for (const ExpenseFieldError& e : rule_errors) fail(column_of(e.field), e.error.code, e.error.message);

  if (!expense && found.empty())  // a rule error on no column: cannot happen, but never answer a bad row
    found.push_back(CsvRowError{row, "", rule_errors.front().error.code, rule_errors.front().error.message});
  if (!found.empty()) {
    std::stable_sort(found.begin(), found.end(), [](const CsvRowError& a, const CsvRowError& b) {
      return column_of(a.column) < column_of(b.column);
    });
    errors.insert(errors.end(), found.begin(), found.end());
    return std::nullopt;
  }
  out.expense = std::move(*expense);
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
