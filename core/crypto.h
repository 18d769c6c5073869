#pragma once
// Hashing, MAC and comparison through libsodium: the same code in the native and the wasm build.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/bytes.h"

namespace core {

using Digest = std::array<std::uint8_t, 32>;

Digest sha256(std::span<const std::uint8_t> data);
inline Digest sha256(std::string_view data) {
  return sha256(as_bytes(data));
}
// Lower-case hex of the SHA-256 digest: how opaque tokens are stored and looked up.
std::string sha256_hex(std::string_view data);

Digest hmac_sha256(std::span<const std::uint8_t> key, std::span<const std::uint8_t> message);
inline Digest hmac_sha256(std::string_view key, std::string_view message) {
  return hmac_sha256(as_bytes(key), as_bytes(message));
}

// Compares in time that depends only on the lengths, never on where the inputs differ. Inputs of
// different length are unequal.
bool constant_time_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);
inline bool constant_time_equal(std::string_view a, std::string_view b) {
  return constant_time_equal(as_bytes(a), as_bytes(b));
}

}  // namespace core
