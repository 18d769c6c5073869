#include "core/restaurant/csv.h"

namespace core::restaurant {
namespace {

Error csv_error(std::size_t line, std::string_view what) {
  return make_error("invalid_csv", "line " + std::to_string(line) + ": " + std::string(what));
}

}  // namespace

Result<std::vector<CsvRecord>> parse_csv(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<CsvRecord> records;
  std::size_t line = 1;
  std::size_t i = 0;
  const std::size_t n = text.size();
  // Consumes a line end at i (CRLF, LF or CR); true when there was one.
  auto eat_line_end = [&]() {
    if (i < n && text[i] == '\r') {
      ++i;
      if (i < n && text[i] == '\n') ++i;
      ++line;
      return true;
    }
    if (i < n && text[i] == '\n') {
      ++i;
      ++line;
      return true;
    }
    return false;
  };
  while (i < n) {
    CsvRecord record;
    record.line = line;
    while (true) {
      std::string field;
      if (i < n && text[i] == '"') {
        const std::size_t opened_on = line;
        ++i;
        while (true) {
          if (i >= n) return csv_error(opened_on, "a quoted field is not closed");
          const char c = text[i];
          if (c == '"') {
            if (i + 1 < n && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          if (c == '\n' || (c == '\r' && !(i + 1 < n && text[i + 1] == '\n'))) ++line;
          field += c;
          ++i;
        }
        if (i < n && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
          return csv_error(line, "unexpected character after a closing quote");
        }
      } else {
        while (i < n && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
          if (text[i] == '"')
            return csv_error(line, "a quote inside an unquoted field (quote the whole field)");
          field += text[i];
          ++i;
        }
      }
      record.fields.push_back(std::move(field));
      if (i < n && text[i] == ',') {
        ++i;
        continue;
      }
      eat_line_end();
      break;
    }
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace core::restaurant

namespace core::restaurant {

std::string csv_field(std::string_view value) {
  if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csv_text_field(std::string_view value) {
  if (!value.empty() && std::string_view("=+-@\t\r").find(value.front()) != std::string_view::npos)
    return csv_field("'" + std::string(value));
  return csv_field(value);
}

}  // namespace core::restaurant
