#include "core/auth/webauthn/signature.h"

#include <bearssl.h>

#include <array>
#include <string_view>
#include <variant>

#include "core/crypto.h"
#include "core/rsa_verify.h"

namespace core::webauthn {
namespace {

// As in core/rsa_verify.cpp: BearSSL's defaults natively (64-bit arithmetic), the 31-bit code in wasm,
// whose 32x32->64-bit multiplies wasm32 runs natively. The wasm build compiles only these EC files
// (wasm/toolchain_deps.cmake).
const br_ec_impl* p256_impl() {
#ifdef __EMSCRIPTEN__
  return &br_ec_p256_m31;
#else
  return br_ec_get_default();
#endif
}

br_ecdsa_vrfy ecdsa_asn1_verifier() {
#ifdef __EMSCRIPTEN__
  return &br_ecdsa_i31_vrfy_asn1;
#else
  return br_ecdsa_vrfy_asn1_get_default();
#endif
}

// SEC 1 §2.3.3 uncompressed encoding: 0x04 || x || y.
std::array<std::uint8_t, 65> uncompressed(const P256PublicKey& point) {
  std::array<std::uint8_t, 65> q{};
  q[0] = 0x04;
  std::copy(point.x.begin(), point.x.end(), q.begin() + 1);
  std::copy(point.y.begin(), point.y.end(), q.begin() + 33);
  return q;
}

bool verify_es256(const P256PublicKey& point, std::span<const std::uint8_t> signed_data,
                  std::span<const std::uint8_t> signature) {
  auto q = uncompressed(point);
  const br_ec_public_key pk{BR_EC_secp256r1, q.data(), q.size()};
  const Digest hash = sha256(signed_data);
  // BearSSL decodes the point (refusing one off the curve), converts the DER signature to r || s (the
  // input is copied, not modified) and checks 0 < r, s < n.
  return ecdsa_asn1_verifier()(p256_impl(), hash.data(), hash.size(), &pk, signature.data(),
                               signature.size()) == 1;
}

}  // namespace

bool on_p256_curve(const P256PublicKey& point) {
  auto q = uncompressed(point);
  // Multiplying by 1 makes BearSSL decode the point, which checks that the coordinates are below the field
  // prime and satisfy the curve equation; the result is discarded.
  const std::uint8_t one = 1;
  return p256_impl()->mul(q.data(), q.size(), &one, 1, BR_EC_secp256r1) == 1;
}

bool verify_signature(const CosePublicKey& key, std::span<const std::uint8_t> signed_data,
                      std::span<const std::uint8_t> signature) {
  if (key.alg == CoseAlgorithm::es256) {
    const auto* point = std::get_if<P256PublicKey>(&key.key);
    return point && verify_es256(*point, signed_data, signature);
  }
  const auto* rsa = std::get_if<RsaPublicKey>(&key.key);
  return key.alg == CoseAlgorithm::rs256 && rsa &&
         rs256_verify(*rsa,
                      std::string_view(reinterpret_cast<const char*>(signed_data.data()), signed_data.size()),
                      signature);
}

}  // namespace core::webauthn
