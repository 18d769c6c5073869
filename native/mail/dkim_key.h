#pragma once
// DKIM key pairs for sending domains (issue 12): made with OpenSSL when a domain is created (and for the
// next selector before a rotation), the private half kept by the platform to sign with (dkim_signer.h),
// the public half published as `s1._domainkey` TXT (docs/mail-domains.md, "Records").

#include <string>
#include <string_view>

#include "core/result.h"

namespace native::mail {

struct DkimKeyPair {
  std::string private_key_pem;    // PKCS#8, "-----BEGIN PRIVATE KEY-----", LF line ends, unencrypted
  std::string public_key_base64;  // base64 (with padding, one line) of the DER SubjectPublicKeyInfo: p=
};

// A fresh RSA key pair (public exponent 65537) from OpenSSL's default random source. `bits` from 1024 to
// 4096, the range RFC 8301 §3.2 requires every verifier to accept (it asks signers for at least 2048).
// A 2048-bit key takes about 0.1-0.5 s. Thread-safe.
// Errors: `invalid_key_size` outside 1024..4096; `key_generation_failed` if OpenSSL fails (not expected).
core::Result<DkimKeyPair> generate_dkim_key(int bits = 2048);

}  // namespace native::mail
