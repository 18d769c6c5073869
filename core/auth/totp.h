#pragma once
// TOTP (RFC 6238): HOTP over the number of periods since the Unix epoch, and its verification at login.
// The caller passes the time (`now_s`, Unix seconds) and keeps, per enrolled factor, the last step that
// was accepted, so that a code works once only.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/auth/hotp.h"
#include "core/bytes.h"
#include "core/random.h"
#include "core/result.h"

namespace core::auth {

struct TotpParams {
  OtpAlgorithm algorithm = OtpAlgorithm::sha1;
  int digits = 6;     // 6 or 8
  int period_s = 30;  // 1..3600; RFC 6238 §5.2 recommends 30
  // Verification only (not part of the otpauth URI): how many steps before and after the current one a
  // code may come from, for clock drift between server and phone and the time it takes to type. 0..10.
  int window = 1;
};

// ok, or `invalid_totp_params` naming the field out of range.
Status validate_totp_params(const TotpParams& params);

// A fresh secret: 20 random bytes, the 160 bits RFC 4226 §4 (R6) recommends and the SHA-1 output size.
Bytes make_totp_secret(RandomSource& random);

// The time step of `now_s`: floor(now_s / period_s) (RFC 6238 §4.2, T0 = 0). Times before the epoch
// count as step 0. Precondition: period_s >= 1.
std::uint64_t totp_step(std::int64_t now_s, int period_s);

// The code an authenticator shows at `now_s`. Precondition: validate_totp_params(params) is ok.
std::string totp_code(std::span<const std::uint8_t> secret, std::int64_t now_s, const TotpParams& params);

// Checks a code a user typed at login or at enrolment. `code` may hold ASCII whitespace ("123 456"); any
// other non-digit, or a digit count other than params.digits, makes it invalid. It is compared in constant
// time with the codes of the steps totp_step(now_s) - window .. + window. Steps <= `last_used_step` (nullopt:
// none used yet) are refused: RFC 6238 §5.2 lets a code be accepted once only, and a step older than the
// last accepted one would let a code seen over someone's shoulder be replayed within the window.
//
// Returns the matched step, which the caller must store as the new last used step before reporting
// success. When several steps of the window share the code, the earliest unused one is returned.
// Errors:
//   `invalid_totp_params`  validate_totp_params failed
//   `invalid_totp_secret`  the secret is empty
//   `code_reused`          the code matches only steps <= last_used_step (a replay, or a second login
//                          within the same period)
//   `invalid_code`         malformed, or matches no step of the window
Result<std::uint64_t> verify_totp(std::span<const std::uint8_t> secret, std::string_view code,
                                  std::int64_t now_s, const TotpParams& params,
                                  std::optional<std::uint64_t> last_used_step);

}  // namespace core::auth
