#include "core/mail/domain_name.h"

#include "core/ascii.h"

namespace core::mail {
namespace {

Error invalid(std::string_view name, std::string_view why) {
  return make_error("invalid_domain",
                    "'" + std::string(name) + "' is not a domain name: " + std::string(why));
}

bool is_ldh(char c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'z') || c == '-';
}

}  // namespace

Result<std::string> normalize_domain_name(std::string_view name) {
  std::string domain = to_ascii_lower(trim_ascii_space(name));
  if (!domain.empty() && domain.back() == '.') domain.pop_back();
  if (domain.empty()) return invalid(name, "it is empty");
  if (domain.size() > 253) return invalid(name, "it is longer than 253 characters");
  std::size_t labels = 0;
  std::string_view last;
  for (std::size_t start = 0; start <= domain.size();) {
    std::size_t dot = domain.find('.', start);
    if (dot == std::string::npos) dot = domain.size();
    std::string_view label = std::string_view(domain).substr(start, dot - start);
    if (label.empty()) return invalid(name, "it has an empty label");
    if (label.size() > 63) return invalid(name, "a label is longer than 63 characters");
    for (char c : label)
      if (!is_ldh(c)) return invalid(name, "labels hold only letters, digits and hyphens");
    if (label.front() == '-' || label.back() == '-')
      return invalid(name, "a label starts or ends with a hyphen");
    ++labels;
    last = label;
    start = dot + 1;
  }
  if (labels < 2) return invalid(name, "it needs at least two labels (example.com)");
  bool numeric = true;
  for (char c : last) numeric = numeric && is_ascii_digit(c);
  if (numeric) return invalid(name, "the top-level label is all digits");
  return domain;
}

}  // namespace core::mail
