#include "core/restaurant/text_field.h"

#include "core/ascii.h"

namespace core::restaurant {
Result<std::string> trimmed_text_field(std::string_view text, std::string_view field, std::size_t max_chars) {
  text = trim_ascii_space(text);
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
