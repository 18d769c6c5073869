#include "core/auth/hotp.h"

#include <doctest/doctest.h>

#include <string_view>

#include "core/bytes.h"

using namespace core;
using namespace core::auth;

namespace {

constexpr std::string_view kRfc4226Secret = "12345678901234567890";

}  // namespace

TEST_CASE("hotp_code: RFC 4226 Appendix D, counters 0 to 9") {
  const char* expected[] = {"755224", "287082", "359152", "969429", "338314",
                            "254676", "287922", "162583", "399871", "520489"};
  for (std::uint64_t counter = 0; counter < 10; ++counter) {
    CAPTURE(counter);
    CHECK(hotp_code(as_bytes(kRfc4226Secret), counter, OtpAlgorithm::sha1, 6) == expected[counter]);
  }
}

TEST_CASE("hotp_code keeps leading zeros and honours the digit count") {
  // RFC 6238's SHA-1 code at 1111111109 (counter 0x23523EC) is 07081804: a leading zero.
  CHECK(hotp_code(as_bytes(kRfc4226Secret), 0x23523EC, OtpAlgorithm::sha1, 8) == "07081804");
  CHECK(hotp_code(as_bytes(kRfc4226Secret), 0x23523EC, OtpAlgorithm::sha1, 6) == "081804");
  CHECK(hotp_code(as_bytes(kRfc4226Secret), 0, OtpAlgorithm::sha1, 8).size() == 8);
}

TEST_CASE("hotp: otp_algorithm_name gives the otpauth spelling") {
  CHECK(otp_algorithm_name(OtpAlgorithm::sha1) == "SHA1");
  CHECK(otp_algorithm_name(OtpAlgorithm::sha256) == "SHA256");
  CHECK(otp_algorithm_name(OtpAlgorithm::sha512) == "SHA512");
}
