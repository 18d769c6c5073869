#include "core/status/webhook.h"

#include "core/bytes.h"
#include "core/crypto.h"

namespace core::status {

namespace {
constexpr std::string_view kPrefix = "sha256=";
constexpr std::size_t kHexDigits = 64;

bool is_lower_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}
}  // namespace

std::string sign_webhook(std::string_view raw_body, std::string_view secret) {
  const Digest mac = hmac_sha256(secret, raw_body);
  return std::string(kPrefix) + hex_encode(mac);
}

Status verify_webhook(std::string_view header_value, std::string_view raw_body, std::string_view secret) {
  if (header_value.size() != kPrefix.size() + kHexDigits || !header_value.starts_with(kPrefix)) {
    return make_error("malformed_signature", "the signature must be sha256= and 64 lower-case hex digits");
  }
  const std::string_view given = header_value.substr(kPrefix.size());
  for (char c : given) {
    if (!is_lower_hex(c)) {
      return make_error("malformed_signature", "the signature must be sha256= and 64 lower-case hex digits");
    }
  }
  if (secret.empty()) return make_error("invalid_signature", "no signing secret");
  // Both sides are lower-case hex of the same length, so comparing the text compares the digests.
  const std::string expected = hex_encode(hmac_sha256(secret, raw_body));
  if (!constant_time_equal(expected, given)) {
    return make_error("invalid_signature", "the signature does not match the body");
  }
  return {};
}

}  // namespace core::status
