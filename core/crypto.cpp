#include "core/crypto.h"

#include <sodium.h>

namespace core {
namespace {

// sodium_init is idempotent and thread-safe; it picks CPU-specific implementations once.
void ensure_sodium() {
  static const int initialised = sodium_init();
  (void)initialised;
}

}  // namespace

Digest sha256(std::span<const std::uint8_t> data) {
  ensure_sodium();
  Digest out;
  crypto_hash_sha256(out.data(), data.data(), data.size());
  return out;
}

std::string sha256_hex(std::string_view data) {
  return hex_encode(sha256(data));
}

Digest hmac_sha256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> message) {
  ensure_sodium();
  // crypto_auth_hmacsha256_init accepts keys of any length (longer ones are hashed first, as RFC 2104 says).
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, key.data(), key.size());
  crypto_auth_hmacsha256_update(&state, message.data(), message.size());
  Digest out;
  crypto_auth_hmacsha256_final(&state, out.data());
  return out;
}

bool constant_time_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  ensure_sodium();
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace core
