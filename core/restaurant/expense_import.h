#pragma once
// Rows of the expense CSV import (spec/DECISIONS.md: header
// `accrualDate,category,vendor,grossMinor,vatRateBps,dueDate,paidAt,paymentMethod,isVatDeductible`).
// Bad rows are reported one by one and the good rows are imported (spec document 3), so parsing yields both.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/restaurant/expense.h"
#include "core/result.h"

namespace core::restaurant {

inline constexpr std::array<std::string_view, 9> kExpenseCsvColumns{
    "accrualDate", "category", "vendor",        "grossMinor",     "vatRateBps",
    "dueDate",     "paidAt",   "paymentMethod", "isVatDeductible"};

// Longest category or vendor name or id accepted in a cell.
inline constexpr std::size_t kMaxCsvNameChars = 200;

// A valid data row. category and vendor are names or ids, as written: the edge resolves them (unknown
// vendors are created, unknown categories become row errors there).
struct ExpenseCsvRow {
  std::size_t row = 0;  // 1-based data row number (the first record after the header is row 1)
  std::string category;
  std::optional<std::string> vendor;  // empty cell: no vendor
  ExpenseRecord expense;
};

struct CsvRowError {
  std::size_t row = 0;  // as ExpenseCsvRow::row
  std::string column;   // a header name, or empty for an error about the whole row
  std::string code;
  std::string message;

  friend bool operator==(const CsvRowError&, const CsvRowError&) = default;
};

struct ExpenseCsvImport {
  std::vector<ExpenseCsvRow> rows;  // the good rows, in file order
  std::vector<CsvRowError> errors;  // every problem of every bad row, by row then column order
  std::size_t total = 0;            // data rows, blank lines not counted
  std::size_t failed = 0;           // rows with at least one error
};

// Parses and validates an import file.
// Header: exactly the nine names above (case-sensitive, surrounding spaces ignored) in any order; each once.
// Cells: surrounding ASCII whitespace is trimmed. Empty optional cells take their defaults: vendor none,
// dueDate none, paidAt none (unpaid), paymentMethod `cash`, isVatDeductible true. Records that are a single
// empty field (blank lines) are skipped but still count in the row numbers.
// Per-row error codes: `invalid_row` (wrong number of fields; column empty), `missing_field` (accrualDate,
// category, grossMinor or vatRateBps empty), `invalid_date` (accrualDate, dueDate), `invalid_amount`
// (grossMinor not a whole number of minor units in 0..kMaxAmountMinor, e.g. `12.50`), `vat_rate_invalid`
// (not an integer in 0..10000), `invalid_timestamp` (paidAt not RFC 3339 with a zone), `invalid_field`
// (category/vendor over 200 characters, paymentMethod over 64, isVatDeductible not true/false/1/0).
// Errors for the whole file: `invalid_csv` (see parse_csv); `invalid_csv_header` for an empty file, a
// missing, unknown or repeated column.
Result<ExpenseCsvImport> parse_expense_csv(std::string_view text);

}  // namespace core::restaurant
