#pragma once
// Sending-domain names (spec document 2, Mail: domains): what POST /domains accepts as `name`.

#include <string>
#include <string_view>

#include "core/result.h"

namespace core::mail {

// The domain in its stored form: lower case, without a trailing dot. Accepted: two or more labels joined by
// dots, each 1 to 63 ASCII letters, digits or hyphens, not starting or ending with a hyphen, 253 bytes at
// most (RFC 1035 §2.3.1, RFC 1123 §2.1); the last label not all digits (so an IPv4 address is refused).
// Internationalised names come in their A-label form (`xn--...`); anything else is refused.
// Error: `invalid_domain`, with a message naming the rule broken.
Result<std::string> normalize_domain_name(std::string_view name);

}  // namespace core::mail
