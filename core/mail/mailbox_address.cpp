#include "core/mail/mailbox_address.h"

#include "core/ascii.h"

namespace core::mail {

Result<std::string> normalize_local_part(std::string_view local_part) {
  std::string s = to_ascii_lower(local_part);
  if (s.empty() || s.size() > 64)
    return make_error("invalid_field", "field 'localPart' must be 1 to 64 characters");
  for (char c : s)
    if (!is_ascii_alnum(c) && c != '.' && c != '_' && c != '-')
      return make_error("invalid_field", "field 'localPart' may hold only letters, digits, '.', '_' and '-'");
  if (s.front() == '.' || s.back() == '.' || s.find("..") != std::string::npos)
    return make_error("invalid_field",
                      "field 'localPart' may not start or end with a dot or hold two in a row");
  return s;
}

}  // namespace core::mail
