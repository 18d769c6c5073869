#include "core/auth/base32.h"

#include "core/ascii.h"

namespace core::auth {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// The 5-bit value of an alphabet character in either case, or -1.
int base32_value(char c) {
  if (is_ascii_upper(c)) return c - 'A';
  if (is_ascii_lower(c)) return c - 'a';
  if (c >= '2' && c <= '7') return c - '2' + 26;
  return -1;
}

Error invalid_base32(std::string message) {
  return make_error("invalid_base32", std::move(message));
}

}  // namespace

std::string base32_encode(std::span<const std::uint8_t> data) {
  std::string out;
  out.reserve((data.size() * 8 + 4) / 5);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (std::uint8_t byte : data) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += kAlphabet[(buffer >> bits) & 0x1f];
    }
  }
  if (bits > 0) out += kAlphabet[(buffer << (5 - bits)) & 0x1f];
  return out;
}

Result<Bytes> base32_decode(std::string_view text) {
  Bytes out;
  out.reserve(text.size() * 5 / 8);
  std::uint32_t buffer = 0;
  int bits = 0;
  std::size_t characters = 0;
  bool in_padding = false;
  for (char c : text) {
    if (c == ' ' || c == '-') continue;
    if (c == '=') {
      in_padding = true;
      continue;
    }
    const int value = base32_value(c);
    if (value < 0) return invalid_base32("a base32 secret may only hold the letters A-Z and the digits 2-7");
    if (in_padding) return invalid_base32("'=' may only pad the end of a base32 secret");
    buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
    bits += 5;
    ++characters;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(buffer >> bits));
    }
  }
  const std::size_t leftover = characters % 8;
  if (leftover == 1 || leftover == 3 || leftover == 6) {
    return invalid_base32("the base32 secret has a character too many or too few");
  }
  return out;
}

}  // namespace core::auth
