#include "native/oidc/form_encoding.h"

#include "core/ascii.h"

namespace native::oidc {

std::string form_url_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (core::is_ascii_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(c);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out += {'%', kHex[byte >> 4], kHex[byte & 15]};
    }
  }
  return out;
}

std::string form_url_encode(const FormFields& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out.push_back('&');
    out += form_url_encode(name) + "=" + form_url_encode(value);
  }
  return out;
}

}  // namespace native::oidc
