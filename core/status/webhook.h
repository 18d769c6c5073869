#pragma once
// Webhook signatures (spec document 3, "Authentication" items 4-5): the header
// `X-Service-Signature: sha256=<hex>` carries HMAC-SHA256 of the raw request body keyed with the
// subscriber's managementToken. The sender signs the exact bytes it sends; a receiver verifies those bytes
// before parsing them.

#include <string>
#include <string_view>

#include "core/result.h"

namespace core::status {

inline constexpr std::string_view kSignatureHeader = "X-Service-Signature";
inline constexpr std::string_view kEventHeader = "X-Service-Event";

// `sha256=` followed by 64 lower-case hex digits.
std::string sign_webhook(std::string_view raw_body, std::string_view secret);

// Parses the header value strictly: exactly `sha256=` (lower case) then exactly 64 lower-case hex digits,
// nothing before or after (the HTTP layer has already trimmed optional whitespace around field values).
// The digest is compared in constant time.
// Errors: `malformed_signature` when the value does not have that form; `invalid_signature` when it does
// but the digest differs, or when the secret is empty (no subscriber has an empty token).
Status verify_webhook(std::string_view header_value, std::string_view raw_body, std::string_view secret);

}  // namespace core::status
