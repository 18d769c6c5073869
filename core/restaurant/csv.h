#pragma once
// An RFC 4180 CSV reader for the expense import (spec document 3, POST /expenses/import). Spreadsheet exports
// differ from the RFC in small ways, so the reader also takes LF (and lone CR) line ends, a missing final
// line end and a leading UTF-8 byte order mark.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace core::restaurant {

struct CsvRecord {
  std::size_t line = 0;  // 1-based physical line on which the record starts (quoted fields may span lines)
  std::vector<std::string> fields;
};

// Splits `text` into records and fields.
// - Fields are separated by `,`; records end at CRLF, LF or a lone CR. A final line end adds no record, and
//   an empty text has no records. An empty line is a record with one empty field (callers may skip it).
// - A field that starts with `"` is quoted: it may hold `,`, line ends and `""` (one quote), and must be
//   followed by `,`, a line end or the end of the text.
// - A leading UTF-8 BOM (EF BB BF) is dropped. Bytes are otherwise kept as they are (no trimming here).
// Errors: `invalid_csv` for an unterminated quoted field, a character after a closing quote, or a `"` inside
// an unquoted field; the message names the line.
Result<std::vector<CsvRecord>> parse_csv(std::string_view text);

}  // namespace core::restaurant

namespace core::restaurant {

// One field for a CSV file this program writes (RFC 4180): quoted, with `"` doubled, when it holds `,`, `"`,
// CR or LF; as it is otherwise.
std::string csv_field(std::string_view value);

// A text cell a person typed (a name), made safe to open in a spreadsheet: a value starting with `=`, `+`,
// `-`, `@`, TAB or CR gets a leading `'` so it is not run as a formula (OWASP "CSV injection"), then
// csv_field. Use for names only; numbers are written with csv_field.
std::string csv_text_field(std::string_view value);

}  // namespace core::restaurant
