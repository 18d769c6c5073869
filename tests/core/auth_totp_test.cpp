#include "core/auth/totp.h"

#include <doctest/doctest.h>

#include <string>

#include "core/bytes.h"
#include "counting_random.h"

using namespace core;
using namespace core::auth;

namespace {

// The seeds of RFC 6238 Appendix A's reference code: the ASCII digits repeated to the hash's output size.
constexpr std::string_view kSeedSha1 = "12345678901234567890";
constexpr std::string_view kSeedSha256 = "12345678901234567890123456789012";
constexpr std::string_view kSeedSha512 = "1234567890123456789012345678901234567890123456789012345678901234";

TotpParams eight_digits(OtpAlgorithm algorithm) {
  TotpParams params;
  params.algorithm = algorithm;
  params.digits = 8;
  return params;
}

std::span<const std::uint8_t> secret() {
  return as_bytes(kSeedSha1);
}

// The code of `step` with the default parameters (SHA-1, 6 digits, 30 s).
std::string code_at_step(std::uint64_t step) {
  return hotp_code(secret(), step, OtpAlgorithm::sha1, 6);
}

// The matched step, or the error code.
std::string verify(std::string_view code, std::int64_t now_s, std::optional<std::uint64_t> last_used = {},
                   TotpParams params = {}) {
  auto step = verify_totp(secret(), code, now_s, params, last_used);
  return step ? std::to_string(*step) : step.error().code;
}

}  // namespace

TEST_CASE("totp_code: RFC 6238 Appendix B, every row") {
  struct Row {
    std::int64_t time;
    const char* sha1;
    const char* sha256;
    const char* sha512;
  };
  const Row rows[] = {
      {59, "94287082", "46119246", "90693936"},         {1111111109, "07081804", "68084774", "25091201"},
      {1111111111, "14050471", "67062674", "99943326"}, {1234567890, "89005924", "91819424", "93441116"},
      {2000000000, "69279037", "90698825", "38618901"}, {20000000000, "65353130", "77737706", "47863826"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.time);
    CHECK(totp_code(as_bytes(kSeedSha1), row.time, eight_digits(OtpAlgorithm::sha1)) == row.sha1);
    CHECK(totp_code(as_bytes(kSeedSha256), row.time, eight_digits(OtpAlgorithm::sha256)) == row.sha256);
    CHECK(totp_code(as_bytes(kSeedSha512), row.time, eight_digits(OtpAlgorithm::sha512)) == row.sha512);
  }
}

TEST_CASE("totp_step: whole periods since the epoch") {
  CHECK(totp_step(0, 30) == 0);
  CHECK(totp_step(29, 30) == 0);
  CHECK(totp_step(30, 30) == 1);
  CHECK(totp_step(1111111109, 30) == 0x23523EC);  // RFC 6238 Appendix B's T column
  CHECK(totp_step(20000000000, 30) == 0x27BC86AA);
  CHECK(totp_step(-1, 30) == 0);
  CHECK(totp_step(61, 60) == 1);
}

TEST_CASE("validate_totp_params: digits 6 or 8, period 1..3600 s, window 0..10") {
  CHECK(validate_totp_params({}).ok());
  CHECK(validate_totp_params(eight_digits(OtpAlgorithm::sha512)).ok());
  for (TotpParams bad : {TotpParams{.digits = 7}, TotpParams{.digits = 10}, TotpParams{.period_s = 0},
                         TotpParams{.period_s = 3601}, TotpParams{.window = -1}, TotpParams{.window = 11}}) {
    auto status = validate_totp_params(bad);
    REQUIRE_FALSE(status);
    CHECK(status.error().code == "invalid_totp_params");
  }
}

TEST_CASE("make_totp_secret: 20 fresh random bytes") {
  testing::CountingRandom random;
  CHECK(hex_encode(make_totp_secret(random)) == "000102030405060708090a0b0c0d0e0f10111213");
  CHECK(hex_encode(make_totp_secret(random)) == "1415161718191a1b1c1d1e1f2021222324252627");
}

TEST_CASE("verify_totp accepts the current step and one step either side") {
  const std::int64_t now = 1111111111;  // step 37037037, 1 s into it
  const std::uint64_t step = totp_step(now, 30);
  CHECK(verify(code_at_step(step), now) == std::to_string(step));
  CHECK(verify(code_at_step(step - 1), now) == std::to_string(step - 1));
  CHECK(verify(code_at_step(step + 1), now) == std::to_string(step + 1));
  CHECK(verify(code_at_step(step - 2), now) == "invalid_code");
  CHECK(verify(code_at_step(step + 2), now) == "invalid_code");
}

TEST_CASE("verify_totp: the window is configurable") {
  const std::int64_t now = 1111111111;
  const std::uint64_t step = totp_step(now, 30);
  CHECK(verify(code_at_step(step), now, {}, TotpParams{.window = 0}) == std::to_string(step));
  CHECK(verify(code_at_step(step - 1), now, {}, TotpParams{.window = 0}) == "invalid_code");
  CHECK(verify(code_at_step(step - 2), now, {}, TotpParams{.window = 2}) == std::to_string(step - 2));
  CHECK(verify(code_at_step(step + 2), now, {}, TotpParams{.window = 2}) == std::to_string(step + 2));
}

TEST_CASE("verify_totp refuses a code of a step already used") {
  const std::int64_t now = 1111111111;
  const std::uint64_t step = totp_step(now, 30);
  // The same code twice: the second login is a replay.
  CHECK(verify(code_at_step(step), now, step) == "code_reused");
  // An older code in the window after a newer one was used.
  CHECK(verify(code_at_step(step - 1), now, step) == "code_reused");
  // The next step's code is still fine.
  CHECK(verify(code_at_step(step + 1), now, step) == std::to_string(step + 1));
  // A code from before the last used step, and outside the window: plain invalid.
  CHECK(verify(code_at_step(step - 5), now, step) == "invalid_code");
  // A wrong code says nothing about reuse.
  CHECK(verify("000000", now, step) == (code_at_step(step) == "000000" ? "code_reused" : "invalid_code"));
}

TEST_CASE("verify_totp: the RFC 6238 SHA-512 row with 8 digits") {
  auto step =
      verify_totp(as_bytes(kSeedSha512), "47863826", 20000000000, eight_digits(OtpAlgorithm::sha512), {});
  REQUIRE(step);
  CHECK(*step == 0x27BC86AA);
  auto six =
      verify_totp(as_bytes(kSeedSha512), "863826", 20000000000, eight_digits(OtpAlgorithm::sha512), {});
  REQUIRE_FALSE(six);
  CHECK(six.error().code == "invalid_code");
}

TEST_CASE("verify_totp: spaces allowed, any other non-digit refused") {
  const std::int64_t now = 59;  // step 1: RFC 4226's counter-1 code 287082
  CHECK(verify("287082", now) == "1");
  CHECK(verify("287 082", now) == "1");
  CHECK(verify(" 28 70 82 ", now) == "1");
  CHECK(verify("287-082", now) == "invalid_code");
  CHECK(verify("28708a", now) == "invalid_code");
  CHECK(verify("+287082", now) == "invalid_code");
  CHECK(verify("２87082", now) == "invalid_code");  // a full-width digit is not ASCII
  CHECK(verify("28708", now) == "invalid_code");
  CHECK(verify("2870820", now) == "invalid_code");
  CHECK(verify("", now) == "invalid_code");
  CHECK(verify("      ", now) == "invalid_code");
}

TEST_CASE("verify_totp refuses bad parameters and an empty secret") {
  CHECK(verify("287082", 59, {}, TotpParams{.digits = 7}) == "invalid_totp_params");
  auto empty = verify_totp({}, "287082", 59, {}, {});
  REQUIRE_FALSE(empty);
  CHECK(empty.error().code == "invalid_totp_secret");
}

TEST_CASE("verify_totp near the epoch: the window does not wrap below step 0") {
  CHECK(verify(code_at_step(0), 5) == "0");
  CHECK(verify(code_at_step(1), 5) == "1");
}
