#pragma once
// The status service's secrets at rest (spec document 3: SSH private keys, restart targets' auth headers and
// API tokens, chat-bot tokens, subscribers' management tokens): AES-256-GCM, as the spec names it, rather
// than the platform's XChaCha20-Poly1305 (core/sealed.h).
//
// The AES key is not the deployment's secret key itself but HKDF-SHA256 of it with the info
// "platform status secrets AES-256-GCM v1", so one key never serves two ciphers. Each value gets a random
// 96-bit nonce; the sealed text is base64url(nonce || ciphertext || 16-byte tag) with the prefix `g1.`.
// `associated` binds the value to its place (the record key and member name), so a sealed value copied to
// another record does not open there.

#include <string>
#include <string_view>

#include "core/random.h"
#include "core/result.h"
#include "core/sealed.h"

namespace native::crypto {

std::string seal_aes_gcm(const core::SecretKey& key, std::string_view plaintext, std::string_view associated,
                         core::RandomSource& random);

// `sealed_invalid` when the text is malformed, was sealed under another key or associated data, or was
// altered.
core::Result<std::string> unseal_aes_gcm(const core::SecretKey& key, std::string_view sealed,
                                         std::string_view associated);

}  // namespace native::crypto
