#include "edge/status/status_fields.h"

#include <cctype>

#include "core/ascii.h"
#include "core/restaurant/text_field.h"
#include "core/validate.h"

namespace edge::status {

core::Result<std::optional<std::string>> text_field(const json::object& body, std::string_view key,
                                                    std::size_t max_chars, bool required) {
  auto* v = body.if_contains(key);
  if (!v || v->is_null()) {
    if (required) return core::make_error("missing_field", "field '" + std::string(key) + "' is required");
    return std::optional<std::string>();
  }
  if (!v->is_string())
    return core::make_error("invalid_field", "field '" + std::string(key) + "' must be a string");
  auto text = core::restaurant::trimmed_text_field(v->get_string(), key, max_chars);
  if (!text) return text.error();
  return std::optional<std::string>(std::move(*text));
}

core::Result<std::optional<json::value>> clearable_string(
    const json::object& body, std::string_view key,
    const std::function<core::Result<std::string>(std::string_view)>& check) {
  auto* v = body.if_contains(key);
  if (!v) return std::optional<json::value>();
  if (v->is_null()) return std::optional<json::value>(json::value(nullptr));
  if (!v->is_string())
    return core::make_error("invalid_field", "field '" + std::string(key) + "' must be a string or null");
  auto value = check(v->get_string());
  if (!value) {
    core::Error e = value.error();
    e.message = "field '" + std::string(key) + "': " + e.message;
    return e;
  }
  return std::optional<json::value>(json::value(*value));
}

core::Result<std::string> http_url_value(std::string_view text) {
  CORE_TRY(core::validate_http_url(text));
  return std::string(text);
}

core::Result<std::string> color_value(std::string_view text) {
  bool ok = text.size() == 7 && text[0] == '#';
  for (std::size_t i = 1; ok && i < text.size(); ++i)
    ok = std::isxdigit(static_cast<unsigned char>(text[i])) != 0;
  if (!ok) return core::make_error("invalid_color", "a colour is written #rrggbb (six hex digits)");
  return core::to_ascii_lower(text);
}

core::Result<std::string> domain_value(std::string_view text) {
  CORE_TRY(core::validate_domain_name(text));
  return core::to_ascii_lower(text);
}

std::function<core::Result<std::string>(std::string_view)> text_value(std::string key,
                                                                      std::size_t max_chars) {
  return [key = std::move(key), max_chars](std::string_view text) {
    return core::restaurant::trimmed_text_field(text, key, max_chars);
  };
}

}  // namespace edge::status
