#pragma once
// The provider's RS256 signing key (OAUTH_RSA_PRIVATE_KEY): an RSA private key in PEM, loaded and used
// through OpenSSL 3. Verification is the core's (core/rsa_verify.h, BearSSL), so what this key signs is
// checked by the same code that checks tokens in the browser.

#include <memory>
#include <string>
#include <string_view>

#include "core/bytes.h"
#include "core/json.h"
#include "core/jwk.h"
#include "core/result.h"

namespace native {

class RsaSigningKey {
 public:
  // Reads the first private key of `pem`: PKCS#1 ("BEGIN RSA PRIVATE KEY") or unencrypted PKCS#8
  // ("BEGIN PRIVATE KEY"). Line breaks written as the two characters `\n` (a PEM squeezed into a one-line
  // environment variable) are read as line breaks. The key must be RSA (not RSA-PSS, EC, ...) with a
  // modulus of core::kMinRsaBits..core::kMaxRsaBits (2048..4096) bits, and must pass a sign-and-verify
  // self-test through core::rs256_verify. Encrypted keys are refused without asking for a passphrase.
  // Errors: `invalid_key` (the message never quotes the PEM).
  static core::Result<RsaSigningKey> from_pem(std::string_view pem);

  // RSASSA-PKCS1-v1_5 with SHA-256 of `signing_input` (deterministic, so equal inputs give equal
  // signatures). Thread-safe: the key is shared read-only and each call has its own OpenSSL context.
  // Returns an empty Bytes only if OpenSSL fails internally (out of memory), which callers treat as a
  // server error.
  core::Bytes sign_rs256(std::string_view signing_input) const;

  // A compact JWS with header {"alg":"RS256","typ":"JWT","kid":<public_key().kid>} over `claims`.
  // Empty only when sign_rs256 fails.
  std::string sign_jwt(const core::json::object& claims) const;

  // n and e of the key; kid is its RFC 7638 thumbprint (core::jwk_thumbprint), as the spec requires.
  const core::RsaPublicKey& public_key() const;

  // Copies share the same immutable OpenSSL key. A moved-from key may only be assigned to or destroyed.
  RsaSigningKey(const RsaSigningKey&) = default;
  RsaSigningKey(RsaSigningKey&&) noexcept = default;
  RsaSigningKey& operator=(const RsaSigningKey&) = default;
  RsaSigningKey& operator=(RsaSigningKey&&) noexcept = default;
  ~RsaSigningKey();

 private:
  struct State;
  explicit RsaSigningKey(std::shared_ptr<const State> state);
  std::shared_ptr<const State> state_;
};

// For tests and local tooling only (never called by the server, which reads its key from configuration):
// a fresh RSA private key of `bits` bits in PEM, PKCS#8 ("BEGIN PRIVATE KEY") or PKCS#1 ("BEGIN RSA
// PRIVATE KEY"). Empty on failure. A 2048-bit key takes about 0.1-0.5 s to generate.
enum class PemFormat { pkcs8, pkcs1 };
std::string generate_rsa_pem(int bits, PemFormat format = PemFormat::pkcs8);

}  // namespace native
