#pragma once
// JSON over Boost.JSON without exceptions: parsing, and typed reads of request fields that fail with a
// message naming the field. Unknown fields are ignored by design (spec/DECISIONS.md).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "core/result.h"

namespace core {

namespace json = boost::json;

// Error codes: `invalid_json` (not JSON, or trailing garbage), `invalid_body` (JSON, but not an object).
Result<json::value> parse_json(std::string_view text);
Result<json::object> parse_json_object(std::string_view text);
// The same, allocating the value from `storage` (for example a json::monotonic_resource on the stack when
// many records are read one after the other); the value must not outlive that memory resource.
Result<json::object> parse_json_object(std::string_view text, json::storage_ptr storage);

std::string to_json(const json::value& v);

// Field reads. A required field that is missing or null fails with `missing_field`; a present field of the
// wrong type fails with `invalid_field`. Optional reads answer nullopt for a missing or null field.
Result<std::string> require_string(const json::object& o, std::string_view key);
Result<std::optional<std::string>> optional_string(const json::object& o, std::string_view key);

// Integers: a JSON number with no fractional part that fits in int64 (`5`, also `5.0` is refused: the
// platform's amounts are integers on the wire, and a decimal point means the client sent a decimal).
Result<std::int64_t> require_int(const json::object& o, std::string_view key);
Result<std::optional<std::int64_t>> optional_int(const json::object& o, std::string_view key);

Result<bool> require_bool(const json::object& o, std::string_view key);
Result<std::optional<bool>> optional_bool(const json::object& o, std::string_view key);

// An array whose every element is a string.
Result<std::vector<std::string>> require_string_array(const json::object& o, std::string_view key);
Result<std::optional<std::vector<std::string>>> optional_string_array(const json::object& o,
                                                                      std::string_view key);

}  // namespace core
