#include "core/restaurant/csv.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/restaurant/expense_import.h"

using namespace core;
using namespace core::restaurant;

namespace {

using Rows = std::vector<std::vector<std::string>>;

Rows fields(std::string_view text) {
  auto r = parse_csv(text);
  REQUIRE_MESSAGE(r.ok(), text);
  Rows out;
  for (const auto& rec : *r) out.push_back(rec.fields);
  return out;
}

const std::string kHeader =
    "accrualDate,category,vendor,grossMinor,vatRateBps,dueDate,paidAt,paymentMethod,isVatDeductible\r\n";

}  // namespace

TEST_CASE("RFC 4180 records: quotes, escaped quotes, embedded line ends, CRLF and LF") {
  CHECK(fields("a,b,c\r\n1,2,3\r\n") == Rows{{"a", "b", "c"}, {"1", "2", "3"}});
  CHECK(fields("a,b\n1,2") == Rows{{"a", "b"}, {"1", "2"}});  // LF, no final line end
  CHECK(fields("\"x, y\",\"say \"\"hi\"\"\",\"\"\n") == Rows{{"x, y", "say \"hi\"", ""}});
  CHECK(fields("\"two\r\nlines\",z\r\n") == Rows{{"two\r\nlines", "z"}});
  CHECK(fields("a,,\n") == Rows{{"a", "", ""}});
  CHECK(fields("a\n\nb\n") == Rows{{"a"}, {""}, {"b"}});  // a blank line is one empty field
  CHECK(fields("a\rb\r") == Rows{{"a"}, {"b"}});          // lone CR line ends
  CHECK(fields("\xEF\xBB\xBF"
               "a,b\n") == Rows{{"a", "b"}});  // the BOM is dropped
  CHECK(fields("").empty());
  CHECK(fields(" a , b ") == Rows{{" a ", " b "}});  // the reader keeps spaces
}

TEST_CASE("record line numbers count the lines inside quoted fields") {
  auto r = parse_csv("h\n\"1\n2\"\nx\n");
  REQUIRE(r.ok());
  REQUIRE(r->size() == 3);
  CHECK((*r)[1].line == 2);
  CHECK((*r)[2].line == 4);
}

TEST_CASE("malformed CSV is refused with the line") {
  CHECK(parse_csv("a,\"open\n").error().code == "invalid_csv");
  CHECK(parse_csv("a,\"open\n").error().message == "line 1: a quoted field is not closed");
  CHECK(parse_csv("a\n\"x\"y,b\n").error().message == "line 2: unexpected character after a closing quote");
  CHECK(parse_csv("a\nx\"y\n").error().code == "invalid_csv");
}

TEST_CASE("expense import: good and bad rows side by side") {
  const std::string csv =
      kHeader +
      // row 1: good, quoted vendor with a comma and an escaped quote, 18 %, unpaid with due
      "2026-01-31,Food,\"Metro, \"\"Cash & Carry\"\"\",11800,1800,2026-02-15,,,\r\n"
      // row 2: bad amount (decimal) and bad rate
      "2026-01-31,Food,,118.00,0.18,,,,\r\n"
      // row 3: blank line: skipped but counted in the numbering
      "\r\n"
      // row 4: good, paid by card, VAT not deductible
      "2026-02-01, Rent ,Landlord,50000,2000,,2026-02-01T10:00:00Z,card,false\r\n"
      // row 5: missing category, invalid date, paidAt without a zone, bad flag
      "2026-02-30,,,100,800,,2026-02-01T10:00:00,,maybe\r\n"
      // row 6: too few fields
      "2026-02-01,Food,100\r\n";
  auto imported = parse_expense_csv(csv);
  REQUIRE(imported.ok());
  CHECK(imported->total == 5);
  CHECK(imported->failed == 3);
  REQUIRE(imported->rows.size() == 2);

  const ExpenseCsvRow& first = imported->rows[0];
  CHECK(first.row == 1);
  CHECK(first.category == "Food");
  CHECK(first.vendor == "Metro, \"Cash & Carry\"");
  CHECK(first.expense.amounts == ExpenseAmounts{11800, 10000, 1800, 10000});
  CHECK(first.expense.is_payable());
  CHECK(first.expense.paymentMethod == "cash");
  CHECK(first.expense.isVatDeductible);

  const ExpenseCsvRow& rent = imported->rows[1];
  CHECK(rent.row == 4);
  CHECK(rent.category == "Rent");
  // 50000 at 20 %: vat = 50000 * 2000 / 12000 = 8333.33 -> 8333, net 41667; not deductible: cost = gross.
  CHECK(rent.expense.amounts == ExpenseAmounts{50000, 41667, 8333, 50000});
  CHECK(rent.expense.paymentMethod == "card");
  CHECK(*rent.expense.paidAtUnixMs == *parse_timestamp("2026-02-01T10:00:00.000Z"));

  std::vector<std::string> got;
  for (const auto& e : imported->errors) got.push_back(std::to_string(e.row) + ":" + e.column + ":" + e.code);
  CHECK(got == std::vector<std::string>{
                   "2:grossMinor:invalid_amount",
                   "2:vatRateBps:vat_rate_invalid",
                   "5:accrualDate:invalid_date",
                   "5:category:missing_field",
                   "5:paidAt:invalid_timestamp",
                   "5:isVatDeductible:invalid_field",
                   "6::invalid_row",
               });
}

TEST_CASE("expense import: columns in any order, LF and a BOM") {
  const std::string csv =
      "\xEF\xBB\xBF"
      "grossMinor,vatRateBps,category,vendor,accrualDate,dueDate,paidAt,paymentMethod,isVatDeductible\n"
      "1000,800,cat_abc,,2025-12-31,,,,TRUE\n";
  auto imported = parse_expense_csv(csv);
  REQUIRE(imported.ok());
  REQUIRE(imported->rows.size() == 1);
  CHECK(imported->total == 1);
  CHECK(imported->rows[0].category == "cat_abc");
  CHECK_FALSE(imported->rows[0].vendor.has_value());
  CHECK(format_day_key(imported->rows[0].expense.accrualDate) == "2025-12-31");
  // 1000 at 8 %: 1000 * 800 / 10800 = 74.07 -> 74.
  CHECK(imported->rows[0].expense.amounts == ExpenseAmounts{1000, 926, 74, 926});
}

TEST_CASE("expense import: range errors per cell") {
  auto imported = parse_expense_csv(kHeader + "2026-01-01,Food,,-5,10001,2026-01-32,,x,1\n" +
                                    "2026-01-01,Food,,1000000000000001,2000,,,,0\n");
  REQUIRE(imported.ok());
  std::vector<std::string> got;
  for (const auto& e : imported->errors) got.push_back(std::to_string(e.row) + ":" + e.column + ":" + e.code);
  CHECK(got == std::vector<std::string>{"1:grossMinor:invalid_amount", "1:vatRateBps:vat_rate_invalid",
                                        "1:dueDate:invalid_date", "2:grossMinor:invalid_amount"});
  CHECK(imported->failed == 2);
}

TEST_CASE("expense import: header errors refuse the whole file") {
  CHECK(parse_expense_csv("").error().code == "invalid_csv_header");
  CHECK(parse_expense_csv("accrualDate,category\n").error().message == "missing column 'vendor'");
  CHECK(parse_expense_csv(kHeader.substr(0, kHeader.size() - 2) + ",note\n").error().message ==
        "unknown column 'note'");
  CHECK(parse_expense_csv("accrualDate,accrualDate\n").error().message ==
        "column 'accrualDate' appears twice");
  CHECK(parse_expense_csv("AccrualDate\n").error().code == "invalid_csv_header");  // names are case-sensitive
  CHECK(parse_expense_csv(kHeader + "\"unclosed\n").error().code == "invalid_csv");
  auto header_only = parse_expense_csv(kHeader);
  REQUIRE(header_only.ok());
  CHECK(header_only->total == 0);
}

TEST_CASE("csv_field quotes only when needed; csv_text_field defuses formulas") {
  using core::restaurant::csv_field;
  using core::restaurant::csv_text_field;
  CHECK(csv_field("Moda") == "Moda");
  CHECK(csv_field("") == "");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_field("-1250") == "-1250");
  CHECK(csv_text_field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
  CHECK(csv_text_field("+90 555") == "'+90 555");
  CHECK(csv_text_field("@home") == "'@home");
  CHECK(csv_text_field("-minus") == "'-minus");
  CHECK(csv_text_field("Fish & Co") == "Fish & Co");
  // The reader gives back what the writer wrote.
  auto parsed = core::restaurant::parse_csv(csv_field("a,\"b\"\r\nc") + "," + csv_field("d") + "\r\n");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 1);
  CHECK((*parsed)[0].fields == std::vector<std::string>{"a,\"b\"\r\nc", "d"});
}
