#pragma once
// application/x-www-form-urlencoded (RFC 6749 Appendix B): the encoding of authorization request queries,
// token request bodies, and of the client id and secret inside HTTP Basic credentials (RFC 6749 §2.3.1).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace native::oidc {

using FormFields = std::vector<std::pair<std::string, std::string>>;

// Each byte outside RFC 3986's unreserved set [A-Za-z0-9-._~] as %XX (upper-case hex), space as '+'.
// UTF-8 text is encoded byte by byte, as the form encoding requires.
std::string form_url_encode(std::string_view text);

// `name=value` pairs, both encoded, joined by '&', in the given order.
std::string form_url_encode(const FormFields& fields);

}  // namespace native::oidc
