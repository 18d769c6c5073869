#include "core/id.h"

#include <array>

#include "core/bytes.h"

namespace core {

std::string make_id(std::string_view prefix, RandomSource& random) {
  std::array<std::uint8_t, 12> bytes;
  random.fill(bytes);
  return std::string(prefix) + base64url_encode(bytes);
}

bool has_id_shape(std::string_view prefix, std::string_view text) {
  if (text.size() != prefix.size() + 16 || text.substr(0, prefix.size()) != prefix) return false;
  return base64url_decode(text.substr(prefix.size())).ok();
}

}  // namespace core
