#pragma once
// HOTP (RFC 4226): the one-time password of a counter, with the hash functions of RFC 6238 §1.2.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace core::auth {

// The HMAC behind the code. SHA1 is what authenticator apps assume when an otpauth URI names none.
enum class OtpAlgorithm { sha1, sha256, sha512 };

// `SHA1`, `SHA256` or `SHA512`: the spelling of the otpauth `algorithm` parameter.
std::string_view otp_algorithm_name(OtpAlgorithm algorithm);

// The HOTP value of `counter` under `key` (RFC 4226 §5.3: HMAC of the counter as 8 big-endian bytes,
// dynamic truncation to 31 bits, modulo 10^digits), as exactly `digits` decimal digits with leading zeros.
// Precondition: 6 <= digits <= 8 (RFC 4226 §5.3 requires at least 6; authenticator apps show 6 or 8).
std::string hotp_code(std::span<const std::uint8_t> key, std::uint64_t counter, OtpAlgorithm algorithm,
                      int digits);

}  // namespace core::auth
