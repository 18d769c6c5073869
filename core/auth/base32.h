#pragma once
// Base32 (RFC 4648 §6): how TOTP secrets travel in otpauth URIs and how users type them in by hand.

#include <span>
#include <string>
#include <string_view>

#include "core/bytes.h"
#include "core/result.h"

namespace core::auth {

// Upper case A-Z2-7 without `=` padding: the form the Key Uri Format uses for `secret`.
std::string base32_encode(std::span<const std::uint8_t> data);

// Lenient, for secrets typed or pasted by a person: ignores case, spaces and '-' anywhere, and accepts '='
// padding at the end (any amount). Trailing bits of the last character are ignored, as authenticator apps do.
// Errors: `invalid_base32` for any other character, '=' followed by data, or a length no encoder produces
// (1, 3 or 6 characters left over after the last full group of 8).
Result<Bytes> base32_decode(std::string_view text);

}  // namespace core::auth
