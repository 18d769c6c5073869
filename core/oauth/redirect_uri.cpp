#include "core/oauth/redirect_uri.h"

#include "core/ascii.h"
#include "core/validate.h"

namespace core::oauth {

Status validate_redirect_uri(std::string_view uri) {
  CORE_TRY(validate_http_url(uri));
  const std::size_t scheme_end = uri.find("://");
  if (ascii_iequals(uri.substr(0, scheme_end), "https")) return {};
  // http: the host must be a loopback name. validate_http_url has refused user info, so the authority is
  // host[:port].
  std::string_view authority = uri.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find_first_of("/?"));
  std::string_view host = authority;
  if (!host.empty() && host.front() == '[') {
    host = host.substr(0, host.find(']') + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  if (host == "127.0.0.1" || host == "[::1]" || ascii_iequals(host, "localhost")) return {};
  return make_error("invalid_url",
                    "must use https; plain http is allowed only for 127.0.0.1, [::1] and localhost");
}

}  // namespace core::oauth
