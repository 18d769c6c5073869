#pragma once
// Text a provider sent (an error_description, an issuer that does not match) on its way into an error
// message, which may reach logs and pages: printable ASCII only ('?' for anything else, so no line breaks
// or terminal escapes), at most `max_bytes` bytes ("..." marks a cut).

#include <cstddef>
#include <string>
#include <string_view>

namespace native::oidc {

inline std::string untrusted_excerpt(std::string_view text, std::size_t max_bytes = 200) {
  std::string out;
  for (char c : text.substr(0, max_bytes)) out.push_back(c >= ' ' && c < 127 ? c : '?');
  if (text.size() > max_bytes) out += "...";
  return out;
}

}  // namespace native::oidc
