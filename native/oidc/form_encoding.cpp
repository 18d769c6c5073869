#include "native/oidc/form_encoding.h"

#include "core/ascii.h"

namespace native::oidc {

std::string form_url_encode(std::string_view text) {
  // The form serialization differs from percent-encoding only in writing a space as '+'. A '%' of the
  // input is itself encoded (%25), so every "%20" of the output stands for a space.
  std::string out = core::percent_encode(text);
  for (std::size_t at = out.find("%20"); at != std::string::npos; at = out.find("%20", at + 1))
    out.replace(at, 3, "+");
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
