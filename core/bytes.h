#pragma once
// Byte strings and their text encodings (hex, base64url without padding).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace core {

using Bytes = std::vector<std::uint8_t>;

inline std::span<const std::uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}
inline std::string to_string(std::span<const std::uint8_t> b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

// Lower-case hex.
std::string hex_encode(std::span<const std::uint8_t> data);
// Accepts upper and lower case; fails on odd length or a non-hex character.
Result<Bytes> hex_decode(std::string_view text);

// RFC 4648 §5 alphabet, no padding (as JWS and PKCE use it).
std::string base64url_encode(std::span<const std::uint8_t> data);
// Rejects padding, characters outside the alphabet and impossible lengths (len % 4 == 1), and
// non-canonical trailing bits.
Result<Bytes> base64url_decode(std::string_view text);

// RFC 4648 §4 (standard alphabet, `=` padding required): what HTTP Basic credentials and JSON attachment
// contents use.
Result<Bytes> base64_decode(std::string_view text);
std::string base64_encode(std::span<const std::uint8_t> data);

}  // namespace core
