#pragma once
// RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) verification, with BearSSL in both builds: the
// system library natively (libbearssl-dev), Debian's source package compiled with emcc in wasm. Signing
// is native only (native/crypto/rsa_key.h, OpenSSL).

#include <cstdint>
#include <span>
#include <string_view>

#include "core/jwk.h"
#include "core/jwt.h"
#include "core/result.h"

namespace core {

// Whether `signature` is a valid RS256 signature of `signing_input` under `key`. False for any failure:
// a modulus outside kMinRsaBits..kMaxRsaBits, a signature whose length is not the modulus length, a bad
// padding or DigestInfo, a different hash.
bool rs256_verify(const RsaPublicKey& key, std::string_view signing_input,
                  std::span<const std::uint8_t> signature);

// Decodes a compact JWS and verifies it as RS256 with one of `keys`: the key whose `kid` equals the
// header's `kid`; a header without `kid` uses the only key when there is exactly one (with several the
// choice would be a guess). The claims are not checked (check_claims does that).
// Errors, in the order checked: `invalid_jwt` (malformed), `unsupported_alg` (alg is not exactly "RS256"),
// `invalid_jwt` (a `kid` that is not a string), `unknown_kid`, `invalid_signature`.
Result<Jwt> verify_rs256(std::string_view compact, std::span<const RsaPublicKey> keys);

}  // namespace core
