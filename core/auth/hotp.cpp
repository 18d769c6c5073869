#include "core/auth/hotp.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <vector>

#include "core/auth/sha1.h"
#include "core/crypto.h"

namespace core::auth {
namespace {

std::vector<std::uint8_t> hmac(OtpAlgorithm algorithm, std::span<const std::uint8_t> key,
                               std::span<const std::uint8_t> message) {
  switch (algorithm) {
    case OtpAlgorithm::sha256: {
      const Digest mac = hmac_sha256(key, message);
      return {mac.begin(), mac.end()};
    }
    case OtpAlgorithm::sha512: {
      // core/crypto.h has no HMAC-SHA-512; sodium_init is idempotent and picks implementations once.
      static const int sodium_ready = sodium_init();
      (void)sodium_ready;
      // Like crypto_auth_hmacsha256_init, this accepts keys of any length (RFC 2104 §2).
      crypto_auth_hmacsha512_state state;
      crypto_auth_hmacsha512_init(&state, key.data(), key.size());
      crypto_auth_hmacsha512_update(&state, message.data(), message.size());
      std::array<std::uint8_t, crypto_auth_hmacsha512_BYTES> mac;
      crypto_auth_hmacsha512_final(&state, mac.data());
      return {mac.begin(), mac.end()};
    }
    case OtpAlgorithm::sha1:
      break;
  }
  const Sha1Digest mac = hmac_sha1(key, message);
  return {mac.begin(), mac.end()};
}

}  // namespace

std::string_view otp_algorithm_name(OtpAlgorithm algorithm) {
  switch (algorithm) {
    case OtpAlgorithm::sha256:
      return "SHA256";
    case OtpAlgorithm::sha512:
      return "SHA512";
    case OtpAlgorithm::sha1:
      break;
  }
  return "SHA1";
}

std::string hotp_code(std::span<const std::uint8_t> key, std::uint64_t counter, OtpAlgorithm algorithm,
                      int digits) {
  std::array<std::uint8_t, 8> message;
  for (int i = 0; i < 8; ++i) message[i] = static_cast<std::uint8_t>(counter >> (56 - 8 * i));
  const std::vector<std::uint8_t> mac = hmac(algorithm, key, message);

  // RFC 4226 §5.3 dynamic truncation; the offset's 4 bits stay within even a 20-byte MAC.
  const std::size_t offset = mac.back() & 0x0f;
  const std::uint32_t truncated = (std::uint32_t{mac[offset]} & 0x7f) << 24 |
                                  std::uint32_t{mac[offset + 1]} << 16 | std::uint32_t{mac[offset + 2]} << 8 |
                                  std::uint32_t{mac[offset + 3]};

  // Clamped so that a broken precondition yields a wrong code, never a negative string size.
  digits = std::clamp(digits, 1, 9);
  std::string code(static_cast<std::size_t>(digits), '0');
  std::uint32_t rest = truncated;
  for (int i = digits - 1; i >= 0; --i) {
    code[static_cast<std::size_t>(i)] = static_cast<char>('0' + rest % 10);
    rest /= 10;
  }
  return code;
}

}  // namespace core::auth
