#include "core/id.h"

#include <array>

#include "core/bytes.h"

namespace core {

std::string make_id(std::string_view prefix, RandomSource& random) {
  std::array<std::uint8_t, 12> bytes;
  random.fill(bytes);
  return std::string(prefix) + base64url_encode(bytes);
}

std::string make_time_ordered_id(std::string_view prefix, std::int64_t now_ms, RandomSource& random) {
  std::string id(prefix);
  const std::uint64_t t = now_ms < 0 ? 0 : static_cast<std::uint64_t>(now_ms);
  constexpr char kHex[] = "0123456789abcdef";
  for (int shift = 44; shift >= 0; shift -= 4) id.push_back(kHex[(t >> shift) & 0xf]);
  std::array<std::uint8_t, 12> bytes;
  random.fill(bytes);
  return id + base64url_encode(bytes);
}

bool has_id_shape(std::string_view prefix, std::string_view text) {
  if (text.size() != prefix.size() + 16 || text.substr(0, prefix.size()) != prefix) return false;
  return base64url_decode(text.substr(prefix.size())).ok();
}

}  // namespace core
