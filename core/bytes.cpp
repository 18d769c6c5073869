#include "core/bytes.h"

#include <array>

namespace core {
namespace {

constexpr char kHex[] = "0123456789abcdef";
constexpr char kB64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int b64url_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

}  // namespace

std::string hex_encode(std::span<const std::uint8_t> data) {
  std::string out;
  out.reserve(data.size() * 2);
  for (std::uint8_t b : data) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0x0f]);
  }
  return out;
}

Result<Bytes> hex_decode(std::string_view text) {
  if (text.size() % 2 != 0) return make_error("invalid_hex", "hex text has an odd number of characters");
  Bytes out;
  out.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    int hi = hex_value(text[i]), lo = hex_value(text[i + 1]);
    if (hi < 0 || lo < 0) return make_error("invalid_hex", "hex text has a character outside 0-9a-f");
    out.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
  }
  return out;
}

std::string base64url_encode(std::span<const std::uint8_t> data) {
  std::string out;
  out.reserve((data.size() * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    std::uint32_t n = std::uint32_t(data[i]) << 16 | std::uint32_t(data[i + 1]) << 8 | data[i + 2];
    out.push_back(kB64Url[n >> 18 & 63]);
    out.push_back(kB64Url[n >> 12 & 63]);
    out.push_back(kB64Url[n >> 6 & 63]);
    out.push_back(kB64Url[n & 63]);
  }
  std::size_t rest = data.size() - i;
  if (rest == 1) {
    std::uint32_t n = std::uint32_t(data[i]) << 16;
    out.push_back(kB64Url[n >> 18 & 63]);
    out.push_back(kB64Url[n >> 12 & 63]);
  } else if (rest == 2) {
    std::uint32_t n = std::uint32_t(data[i]) << 16 | std::uint32_t(data[i + 1]) << 8;
    out.push_back(kB64Url[n >> 18 & 63]);
    out.push_back(kB64Url[n >> 12 & 63]);
    out.push_back(kB64Url[n >> 6 & 63]);
  }
  return out;
}

Result<Bytes> base64url_decode(std::string_view text) {
  if (text.size() % 4 == 1) return make_error("invalid_base64url", "base64url text has an impossible length");
  Bytes out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v = b64url_value(c);
    if (v < 0) return make_error("invalid_base64url", "base64url text has a character outside its alphabet");
    acc = acc << 6 | std::uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits & 0xff));
    }
  }
  // The leftover bits must be zero, or two texts would decode to the same bytes.
  if ((acc & ((1u << bits) - 1)) != 0)
    return make_error("invalid_base64url", "base64url text has non-zero trailing bits");
  return out;
}

Result<Bytes> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0)
    return make_error("invalid_base64", "base64 text must come in groups of 4 characters");
  std::size_t pad = 0;
  while (pad < 2 && pad < text.size() && text[text.size() - 1 - pad] == '=') ++pad;
  std::string url(text.substr(0, text.size() - pad));
  for (char& c : url) {
    if (c == '+') {
      c = '-';
    } else if (c == '/') {
      c = '_';
    } else if (c == '-' || c == '_') {
      return make_error("invalid_base64", "base64 text has a character outside its alphabet");
    }
  }
  auto out = base64url_decode(url);
  if (!out) return make_error("invalid_base64", "base64 text is malformed");
  return out;
}

std::string base64_encode(std::span<const std::uint8_t> data) {
  std::string out = base64url_encode(data);
  for (char& c : out) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (out.size() % 4 != 0) out += '=';
  return out;
}

}  // namespace core
