#include "core/token.h"

#include <array>

#include "core/bytes.h"

namespace core {
namespace {

struct Format {
  std::string_view prefix;
  std::size_t random_bytes;
  bool hex;  // hex digits, else base64url
};

Format format_of(TokenKind kind) {
  switch (kind) {
    case TokenKind::access_token:
      return {"stk_", 24, true};
    case TokenKind::env_vault_token:
      return {"stk_env_", 24, true};
    case TokenKind::auth_project_key:
      return {"aps_", 24, true};
    case TokenKind::oauth_access:
      return {"oat_", 32, false};
    case TokenKind::oauth_refresh:
      return {"ort_", 32, false};
    case TokenKind::oauth_code:
      return {"oac_", 32, false};
    case TokenKind::oauth_client_secret:
      return {"ocs_", 32, false};
    case TokenKind::session:
      return {"ses_", 32, false};
    case TokenKind::auth_refresh:
      return {"apr_", 32, false};
    case TokenKind::auth_link:
      return {"apl_", 32, false};
    case TokenKind::auth_ticket:
      return {"apt_", 32, false};
    case TokenKind::csrf:
      return {"", 32, false};
  }
  return {"", 32, false};
}

std::size_t encoded_length(const Format& f) {
  return f.hex ? f.random_bytes * 2 : (f.random_bytes * 4 + 2) / 3;
}

bool in_alphabet(char c, bool hex) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) return true;
  if (hex) return false;
  return (c >= 'g' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
}

}  // namespace

std::string_view token_prefix(TokenKind kind) {
  return format_of(kind).prefix;
}

std::string make_token(TokenKind kind, RandomSource& random) {
  Format f = format_of(kind);
  std::array<std::uint8_t, 64> buf{};
  std::span<std::uint8_t> bytes(buf.data(), f.random_bytes);
  random.fill(bytes);
  return std::string(f.prefix) + (f.hex ? hex_encode(bytes) : base64url_encode(bytes));
}

bool has_token_shape(TokenKind kind, std::string_view text) {
  Format f = format_of(kind);
  if (text.size() != f.prefix.size() + encoded_length(f) || text.substr(0, f.prefix.size()) != f.prefix)
    return false;
  for (char c : text.substr(f.prefix.size()))
    if (!in_alphabet(c, f.hex)) return false;
  return true;
}

std::string token_display_prefix(std::string_view token) {
  return std::string(token.substr(0, 12));
}

}  // namespace core
