#include "core/auth/otpauth_uri.h"

#include <doctest/doctest.h>

#include <string>

using namespace core;
using namespace core::auth;

namespace {

std::string uri(std::string_view issuer, std::string_view account,
                std::string_view secret = "JBSWY3DPEHPK3PXP", TotpParams params = {}) {
  auto result = otpauth_uri(issuer, account, secret, params);
  return result ? *result : "error:" + result.error().code;
}

}  // namespace

TEST_CASE("otpauth_uri (totp): the Key Uri Format with every parameter written") {
  CHECK(
      uri("Example", "alice@google.com") ==
      "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA1&digits=6"
      "&period=30");
  CHECK(uri("ACME Co", "john.doe@email.com", "HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ",
            TotpParams{.algorithm = OtpAlgorithm::sha256, .digits = 8, .period_s = 60}) ==
        "otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co"
        "&algorithm=SHA256&digits=8&period=60");
  CHECK(uri("Shop", "bob", "JBSWY3DPEHPK3PXP", TotpParams{.algorithm = OtpAlgorithm::sha512})
            .find("&algorithm=SHA512&") != std::string::npos);
}

TEST_CASE("otpauth_uri (totp) percent-encodes issuer and account") {
  CHECK(uri("A&B=C?", "x+y/z#w") ==
        "otpauth://totp/A%26B%3DC%3F:x%2By%2Fz%23w?secret=JBSWY3DPEHPK3PXP&issuer=A%26B%3DC%3F&algorithm=SHA1"
        "&digits=6&period=30");
  CHECK(uri("Café", "100%") ==
        "otpauth://totp/Caf%C3%A9:100%25?secret=JBSWY3DPEHPK3PXP&issuer=Caf%C3%A9&algorithm=SHA1&digits=6"
        "&period=30");
}

TEST_CASE("otpauth_uri (totp) refuses labels, secrets and parameters the format cannot carry") {
  CHECK(uri("", "alice") == "error:invalid_otpauth_label");
  CHECK(uri("Example", "") == "error:invalid_otpauth_label");
  CHECK(uri("Exa:mple", "alice") == "error:invalid_otpauth_label");
  CHECK(uri("Example", "alice:smith") == "error:invalid_otpauth_label");
  CHECK(uri("Example", "alice", "") == "error:invalid_totp_secret");
  CHECK(uri("Example", "alice", "jbswy3dpehpk3pxp") == "error:invalid_totp_secret");
  CHECK(uri("Example", "alice", "JBSWY3DPEHPK3PXP====") == "error:invalid_totp_secret");
  CHECK(uri("Example", "alice", "JBSW Y3DP") == "error:invalid_totp_secret");
  CHECK(uri("Example", "alice", "JBSWY3DPEHPK3PXP", TotpParams{.digits = 7}) == "error:invalid_totp_params");
}
