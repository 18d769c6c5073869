#pragma once
// Request members the status dashboard reads the same way everywhere (docs/status-api.md, "Fields"):
// each fails with a stable code naming the field.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"

namespace edge::status {

namespace json = core::json;

inline constexpr std::size_t kMaxNameChars = 200;
inline constexpr std::size_t kMaxTaglineChars = 500;
inline constexpr std::size_t kMaxExpectedBodyChars = 1000;

// A required or optional `name`-like text: a string, trimmed, 1..max characters. Missing or null:
// `missing_field` (required) / nullopt; wrong type, empty or too long: `invalid_field`.
core::Result<std::optional<std::string>> text_field(const json::object& body, std::string_view key,
                                                    std::size_t max_chars, bool required);

// A member that may be null to clear it: absent -> nullopt (leave as is), null -> json null, else the
// value `check` accepts. The returned json::value is what to store.
core::Result<std::optional<json::value>> clearable_string(
    const json::object& body, std::string_view key,
    const std::function<core::Result<std::string>(std::string_view)>& check);

// Checks for clearable_string: an http/https URL (`invalid_url`, core::validate_http_url: at most 2048
// characters, no credentials or fragment); a `#rrggbb` colour, stored lower case (`invalid_color`); a host
// name, stored lower case (`invalid_domain`); a trimmed text of 1..max characters (`invalid_field`).
core::Result<std::string> http_url_value(std::string_view text);
core::Result<std::string> color_value(std::string_view text);
core::Result<std::string> domain_value(std::string_view text);
std::function<core::Result<std::string>(std::string_view)> text_value(std::string key, std::size_t max_chars);

}  // namespace edge::status
