#include "core/pkce.h"

#include "core/bytes.h"
#include "core/crypto.h"

namespace core {
namespace {

bool is_unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

}  // namespace

Status validate_code_verifier(std::string_view verifier) {
  if (verifier.size() < 43 || verifier.size() > 128) {
    return make_error("invalid_code_verifier", "code_verifier must be 43 to 128 characters long");
  }
  for (char c : verifier) {
    if (!is_unreserved(c)) {
      return make_error("invalid_code_verifier",
                        "code_verifier may only hold A-Z, a-z, 0-9, '-', '.', '_', '~'");
    }
  }
  return {};
}

Status validate_code_challenge(std::string_view challenge) {
  if (challenge.size() != 43) {
    return make_error("invalid_code_challenge", "code_challenge must be 43 base64url characters (S256)");
  }
  auto decoded = base64url_decode(challenge);
  if (!decoded || decoded->size() != 32) {
    return make_error("invalid_code_challenge", "code_challenge must be the base64url SHA-256 of a verifier");
  }
  return {};
}

std::string pkce_s256_challenge(std::string_view verifier) {
  return base64url_encode(sha256(verifier));
}

bool pkce_s256_matches(std::string_view verifier, std::string_view challenge) {
  if (!validate_code_verifier(verifier)) return false;
  return constant_time_equal(pkce_s256_challenge(verifier), challenge);
}

}  // namespace core
