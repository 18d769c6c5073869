#pragma once
// SHA-1 (FIPS 180-4 §6.1) and HMAC-SHA-1 (RFC 2104), for HOTP/TOTP only: authenticator apps default to
// HMAC-SHA-1, and libsodium has no SHA-1. SHA-1's collision weakness does not affect HMAC-SHA-1 as a
// one-time-password PRF (RFC 6194 on HMAC-SHA-1); do not use these functions for anything else.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/bytes.h"

namespace core::auth {

using Sha1Digest = std::array<std::uint8_t, 20>;

Sha1Digest sha1(std::span<const std::uint8_t> data);
inline Sha1Digest sha1(std::string_view data) {
  return sha1(as_bytes(data));
}

// Keys of any length: longer than the 64-byte block they are hashed first (RFC 2104 §2).
Sha1Digest hmac_sha1(std::span<const std::uint8_t> key, std::span<const std::uint8_t> message);
inline Sha1Digest hmac_sha1(std::string_view key, std::string_view message) {
  return hmac_sha1(as_bytes(key), as_bytes(message));
}

}  // namespace core::auth
