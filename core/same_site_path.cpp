#include "core/same_site_path.h"

#include "core/ascii.h"

namespace core {
namespace {

int hex_value(char c) {
  if (is_ascii_digit(c)) return c - '0';
  return to_ascii_lower(c) - 'a' + 10;
}

// Whether the path part holds `%XX` that decodes to `/`, `\` or a control character.
bool has_encoded_separator(std::string_view path) {
  for (std::size_t i = 0; i + 2 < path.size(); ++i) {
    if (path[i] != '%' || !is_ascii_hex_digit(path[i + 1]) || !is_ascii_hex_digit(path[i + 2])) continue;
    const int byte = hex_value(path[i + 1]) * 16 + hex_value(path[i + 2]);
    if (byte == '/' || byte == '\\' || byte < 0x20 || byte == 0x7f) return true;
  }
  return false;
}

}  // namespace

bool is_same_site_path(std::string_view next) {
  if (next.empty() || next[0] != '/') return false;
  if (next.size() > 1 && next[1] == '/') return false;
  for (char c : next) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || c == '\\') return false;
  }
  return !has_encoded_separator(next.substr(0, next.find_first_of("?#")));
}

}  // namespace core
