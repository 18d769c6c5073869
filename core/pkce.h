#pragma once
// PKCE (RFC 7636) with the S256 method, the only one the provider supports.

#include <string>
#include <string_view>

#include "core/result.h"

namespace core {

// 43..128 characters of the unreserved set [A-Za-z0-9-._~] (RFC 7636 §4.1). Errors: `invalid_code_verifier`.
Status validate_code_verifier(std::string_view verifier);

// The shape of an S256 challenge: exactly 43 base64url characters that decode to 32 bytes (so the last
// character carries no stray bits). Errors: `invalid_code_challenge`.
Status validate_code_challenge(std::string_view challenge);

// base64url(SHA-256(ASCII(verifier))), no padding (RFC 7636 §4.2). Does not validate the verifier.
std::string pkce_s256_challenge(std::string_view verifier);

// Whether `verifier` is well-formed and its S256 challenge equals `challenge`, compared in constant time.
// A malformed verifier never matches.
bool pkce_s256_matches(std::string_view verifier, std::string_view challenge);

}  // namespace core
