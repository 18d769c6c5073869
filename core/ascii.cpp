#include "core/ascii.h"

namespace core {

std::string_view trim_ascii_space(std::string_view text) {
  while (!text.empty() && is_ascii_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_ascii_space(text.back())) text.remove_suffix(1);
  return text;
}

std::string to_ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = to_ascii_lower(c);
  return out;
}

bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (to_ascii_lower(a[i]) != to_ascii_lower(b[i])) return false;
  return true;
}

std::string quote_for_message(std::string_view text) {
  constexpr std::size_t kMaxQuoted = 64;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxQuoted; ++i) {
    const char c = text[i];
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  if (text.size() > kMaxQuoted) out += "...";
  out += '\'';
  return out;
}

std::string percent_encode(std::string_view text, std::string_view also_literal) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (is_ascii_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
        also_literal.find(c) != std::string_view::npos) {
      out.push_back(c);
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += {'%', kHex[byte >> 4], kHex[byte & 15]};
    }
  }
  return out;
}

}  // namespace core
