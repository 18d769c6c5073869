#pragma once
// The Key Uri Format of authenticator apps (github.com/google/google-authenticator/wiki/Key-Uri-Format),
// shown as a QR code at TOTP enrolment:
//   otpauth://totp/Issuer:account?secret=BASE32&issuer=Issuer&algorithm=SHA1&digits=6&period=30

#include <string>
#include <string_view>

#include "core/auth/totp.h"
#include "core/result.h"

namespace core::auth {

// The URI for a TOTP secret. Issuer and account are percent-encoded (every byte outside RFC 3986's unreserved
// set and '@', so UTF-8 too; a space as %20); the ':' between them stays literal. The issuer appears both
// as label prefix and as `issuer` parameter, which apps prefer when both are present. algorithm, digits and
// period are always written, even at their defaults; params.window is not part of the URI.
// Errors:
//   `invalid_totp_params`   validate_totp_params failed
//   `invalid_otpauth_label` issuer or account empty or holding ':' (the format forbids it in either)
//   `invalid_totp_secret`   secret_base32 empty or not upper-case A-Z2-7 without padding (base32_encode)
Result<std::string> otpauth_uri(std::string_view issuer, std::string_view account,
                                std::string_view secret_base32, const TotpParams& params);

}  // namespace core::auth
