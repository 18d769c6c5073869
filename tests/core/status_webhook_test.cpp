#include "core/status/webhook.h"

#include <doctest/doctest.h>

#include <string>

using namespace core::status;

namespace {
// printf '%s' '{"event":"incident.updated"}' | openssl dgst -sha256 -hmac 'mt_3kQ9'
constexpr std::string_view kBody = R"({"event":"incident.updated"})";
constexpr std::string_view kToken = "mt_3kQ9";
constexpr std::string_view kSignature =
    "sha256=7cf09f00645f5f0e057b089dae07e6e830dee3f00eb11b3b61376541ef4037f4";

std::string code_of(std::string_view header, std::string_view body = kBody,
                    std::string_view secret = kToken) {
  auto r = verify_webhook(header, body, secret);
  return r.ok() ? "" : r.error().code;
}
}  // namespace

TEST_CASE("status: webhook signing matches openssl") {
  CHECK(kSignatureHeader == "X-Service-Signature");
  CHECK(kEventHeader == "X-Service-Event");
  CHECK(sign_webhook(kBody, kToken) == kSignature);
  // printf '%s' '' | openssl dgst -sha256 -hmac 'key'
  CHECK(sign_webhook("", "key") == "sha256=5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0");
}

TEST_CASE("status: webhook verification") {
  CHECK(code_of(kSignature) == "");
  CHECK(code_of(sign_webhook("", "key"), "", "key") == "");
  // Wrong body (one byte more), wrong secret, one digit changed, empty secret.
  CHECK(code_of(kSignature, std::string(kBody) + " ") == "invalid_signature");
  CHECK(code_of(kSignature, kBody, "mt_3kQ8") == "invalid_signature");
  std::string flipped(kSignature);
  flipped.back() = '5';
  CHECK(code_of(flipped) == "invalid_signature");
  CHECK(code_of(sign_webhook(kBody, ""), kBody, "") == "invalid_signature");

  // Strict form.
  std::string upper(kSignature);
  upper[8] = 'C';  // "7c..." -> "7C...": one upper-case digit is enough to refuse
  CHECK(code_of(upper) == "malformed_signature");
  std::string upper_hex = "sha256=7CF09F00645F5F0E057B089DAE07E6E830DEE3F00EB11B3B61376541EF4037F4";
  CHECK(code_of(upper_hex) == "malformed_signature");
  CHECK(code_of("SHA256=7cf09f00645f5f0e057b089dae07e6e830dee3f00eb11b3b61376541ef4037f4") ==
        "malformed_signature");
  CHECK(code_of("sha1=7cf09f00645f5f0e057b089dae07e6e830dee3f00eb11b3b61376541ef4037f4") ==
        "malformed_signature");
  CHECK(code_of(std::string(kSignature) + " ") == "malformed_signature");
  CHECK(code_of(" " + std::string(kSignature)) == "malformed_signature");
  CHECK(code_of(std::string(kSignature).substr(0, 70)) == "malformed_signature");
  CHECK(code_of(std::string(kSignature) + "0") == "malformed_signature");
  CHECK(code_of("7cf09f00645f5f0e057b089dae07e6e830dee3f00eb11b3b61376541ef4037f4") == "malformed_signature");
  CHECK(code_of("sha256:7cf09f00645f5f0e057b089dae07e6e830dee3f00eb11b3b61376541ef4037f4") ==
        "malformed_signature");
  CHECK(code_of("sha256=7cf09f00645f5f0e057b089dae07e6e830dee3f00eb11b3b61376541ef4037g4") ==
        "malformed_signature");
  CHECK(code_of("") == "malformed_signature");
  // The form is checked before the secret.
  CHECK(code_of("sha256=", kBody, "") == "malformed_signature");
}
