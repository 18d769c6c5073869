#include "core/auth/otpauth_uri.h"

#include "core/ascii.h"

namespace core::auth {
namespace {

// RFC 3986's unreserved characters, plus '@': legal in both the path and a query value, and what an account
// that is an email address looks best with (as in the format's own example).
std::string percent_encode(std::string_view text) {
  return core::percent_encode(text, "@");
}

bool is_label_part(std::string_view text) {
  return !text.empty() && text.find(':') == std::string_view::npos;
}

bool is_canonical_base32(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!is_ascii_upper(c) && !(c >= '2' && c <= '7')) return false;
  }
  return true;
}

}  // namespace

Result<std::string> otpauth_uri(std::string_view issuer, std::string_view account,
                                std::string_view secret_base32, const TotpParams& params) {
  CORE_TRY(validate_totp_params(params));
  if (!is_label_part(issuer) || !is_label_part(account)) {
    return make_error("invalid_otpauth_label",
                      "issuer and account must be non-empty and may not contain ':'");
  }
  if (!is_canonical_base32(secret_base32)) {
    return make_error("invalid_totp_secret", "the secret must be upper-case base32 without padding");
  }
  const std::string encoded_issuer = percent_encode(issuer);
  std::string uri = "otpauth://totp/" + encoded_issuer + ":" + percent_encode(account);
  uri += "?secret=" + std::string(secret_base32);
  uri += "&issuer=" + encoded_issuer;
  uri += "&algorithm=" + std::string(otp_algorithm_name(params.algorithm));
  uri += "&digits=" + std::to_string(params.digits);
  uri += "&period=" + std::to_string(params.period_s);
  return uri;
}

}  // namespace core::auth
