#pragma once
// Secrets that must be read back (vault values, bot tokens, SSH keys, auth headers) are stored sealed:
// XChaCha20-Poly1305 (libsodium's AEAD) under the deployment's 32-byte secret key, with a random 192-bit
// nonce per value. The sealed text is base64url(nonce || ciphertext || tag).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/random.h"
#include "core/result.h"

namespace core {

using SecretKey = std::array<std::uint8_t, 32>;

// `associated` binds the value to its place (for example the record key), so a sealed value copied to
// another record does not open there.
std::string seal(const SecretKey& key, std::string_view plaintext, std::string_view associated,
                 RandomSource& random);

// `sealed_invalid` when the text is malformed, was sealed under another key or associated data, or was
// altered.
Result<std::string> unseal(const SecretKey& key, std::string_view sealed, std::string_view associated);

}  // namespace core
