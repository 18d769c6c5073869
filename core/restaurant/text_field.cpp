#include "core/restaurant/text_field.h"

namespace core::restaurant {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

}  // namespace

Result<std::string> trimmed_text_field(std::string_view text, std::string_view field, std::size_t max_chars) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.empty()) return make_error("invalid_field", std::string(field) + " must not be empty");
  std::size_t chars = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
  }
  if (chars > max_chars) {
    return make_error("invalid_field",
                      std::string(field) + " must be at most " + std::to_string(max_chars) + " characters");
  }
  return std::string(text);
}

}  // namespace core::restaurant
