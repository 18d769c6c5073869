#include "core/auth/totp.h"

#include <string>

#include "core/ascii.h"
#include "core/crypto.h"

namespace core::auth {
namespace {

constexpr std::size_t kSecretBytes = 20;

Error invalid_code() {
  return make_error("invalid_code", "the code is not valid");
}

}  // namespace

Status validate_totp_params(const TotpParams& params) {
  if (params.digits != 6 && params.digits != 8) {
    return make_error("invalid_totp_params", "digits must be 6 or 8");
  }
  if (params.period_s < 1 || params.period_s > 3600) {
    return make_error("invalid_totp_params", "period must be 1 to 3600 seconds");
  }
  if (params.window < 0 || params.window > 10) {
    return make_error("invalid_totp_params", "window must be 0 to 10 steps");
  }
  return {};
}

Bytes make_totp_secret(RandomSource& random) {
  Bytes secret(kSecretBytes);
  random.fill(secret);
  return secret;
}

std::uint64_t totp_step(std::int64_t now_s, int period_s) {
  if (now_s < 0) return 0;
  return static_cast<std::uint64_t>(now_s) / static_cast<std::uint64_t>(period_s);
}

std::string totp_code(std::span<const std::uint8_t> secret, std::int64_t now_s, const TotpParams& params) {
  return hotp_code(secret, totp_step(now_s, params.period_s), params.algorithm, params.digits);
}

Result<std::uint64_t> verify_totp(std::span<const std::uint8_t> secret, std::string_view code,
                                  std::int64_t now_s, const TotpParams& params,
                                  std::optional<std::uint64_t> last_used_step) {
  CORE_TRY(validate_totp_params(params));
  if (secret.empty()) return make_error("invalid_totp_secret", "the TOTP secret is empty");

  std::string digits;
  for (char c : code) {
    if (is_ascii_space(c)) continue;
    if (!is_ascii_digit(c)) return invalid_code();
    digits += c;
  }
  if (digits.size() != static_cast<std::size_t>(params.digits)) return invalid_code();

  const std::uint64_t current = totp_step(now_s, params.period_s);
  const auto window = static_cast<std::uint64_t>(params.window);
  const std::uint64_t first = current >= window ? current - window : 0;
  std::optional<std::uint64_t> accepted;
  bool reused = false;
  // Every step of the window is computed and compared, so the time taken does not tell which one matched.
  for (std::uint64_t step = first; step <= current + window; ++step) {
    const bool match = constant_time_equal(hotp_code(secret, step, params.algorithm, params.digits),
                                           std::string_view(digits));
    if (!match) continue;
    if (last_used_step && step <= *last_used_step) {
      reused = true;
    } else if (!accepted) {
      accepted = step;
    }
  }
  if (accepted) return *accepted;
  if (reused) return make_error("code_reused", "this code was already used: wait for the next one");
  return invalid_code();
}

}  // namespace core::auth
