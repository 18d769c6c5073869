#pragma once
// Signatures by a credential's key, checked with BearSSL in both builds (hashing with libsodium).

#include <cstdint>
#include <span>

#include "core/auth/webauthn/cose_key.h"

namespace core::webauthn {

// Whether `signature` is `key`'s signature of `signed_data`: for ES256 an ASN.1 DER ECDSA signature
// (SEQUENCE of r and s, WebAuthn §6.5.6) over SHA-256, for RS256 a PKCS#1 v1.5 signature with SHA-256 as
// long as the modulus. False for any failure, including a malformed key.
bool verify_signature(const CosePublicKey& key, std::span<const std::uint8_t> signed_data,
                      std::span<const std::uint8_t> signature);

// Whether (x, y) is a point of P-256 other than the point at infinity.
bool on_p256_curve(const P256PublicKey& point);

}  // namespace core::webauthn
