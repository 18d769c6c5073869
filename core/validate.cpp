#include "core/validate.h"

#include "core/ascii.h"

namespace core {
namespace {

constexpr std::size_t kMaxDomainLength = 253;
constexpr std::size_t kMaxLabelLength = 63;
constexpr std::size_t kMaxEmailLength = 254;
constexpr std::size_t kMaxLocalPartLength = 64;
constexpr std::size_t kMaxUrlLength = 2048;

bool valid_label(std::string_view label) {
  if (label.empty() || label.size() > kMaxLabelLength) return false;
  if (label.front() == '-' || label.back() == '-') return false;
  for (char c : label)
    if (!is_ascii_alnum(c) && c != '-') return false;
  return true;
}

bool all_digits(std::string_view text) {
  for (char c : text)
    if (!is_ascii_digit(c)) return false;
  return !text.empty();
}

// RFC 5322 atext.
bool is_atext(char c) {
  if (is_ascii_alnum(c)) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '/':
    case '=':
    case '?':
    case '^':
    case '_':
    case '`':
    case '{':
    case '|':
    case '}':
    case '~':
      return true;
    default:
      return false;
  }
}

bool valid_local_part(std::string_view local) {
  if (local.empty() || local.size() > kMaxLocalPartLength) return false;
  if (local.front() == '.' || local.back() == '.') return false;
  char previous = 0;
  for (char c : local) {
    if (c == '.') {
      if (previous == '.') return false;
    } else if (!is_atext(c)) {
      return false;
    }
    previous = c;
  }
  return true;
}

// Four decimal parts 0..255 without leading zeros (a leading zero reads as octal in some resolvers).
bool valid_ipv4(std::string_view text) {
  int parts = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = text.find('.', start);
    const std::string_view part = text.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (part.empty() || part.size() > 3 || !all_digits(part) || (part.size() > 1 && part[0] == '0'))
      return false;
    int value = 0;
    for (char c : part) value = value * 10 + (c - '0');
    if (value > 255) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts == 4;
}

// Counts the 16-bit groups of one side of an IPv6 address (`1:2:3`); an IPv4 tail counts as two groups.
bool count_ipv6_groups(std::string_view text, bool allow_ipv4_tail, int& groups) {
  groups = 0;
  if (text.empty()) return true;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    const std::string_view group =
        text.substr(start, colon == std::string_view::npos ? colon : colon - start);
    if (colon == std::string_view::npos && allow_ipv4_tail && group.find('.') != std::string_view::npos) {
      if (!valid_ipv4(group)) return false;
      groups += 2;
      return true;
    }
    if (group.empty() || group.size() > 4) return false;
    for (char c : group)
      if (!is_ascii_hex_digit(c)) return false;
    ++groups;
    if (colon == std::string_view::npos) return true;
    start = colon + 1;
  }
}

// RFC 4291 §2.2 text forms: eight groups, or fewer with one "::", optionally ending in dotted IPv4.
bool valid_ipv6(std::string_view text) {
  const std::size_t gap = text.find("::");
  if (gap == std::string_view::npos) {
    int groups = 0;
    return count_ipv6_groups(text, true, groups) && groups == 8;
  }
  if (text.find("::", gap + 1) != std::string_view::npos) return false;
  int before = 0, after = 0;
  return count_ipv6_groups(text.substr(0, gap), false, before) &&
         count_ipv6_groups(text.substr(gap + 2), true, after) && before + after <= 7;
}

// RFC 3986 pchar plus '/' and '?' (path and query), without the '%' which is checked with its two digits.
bool is_path_or_query_char(char c) {
  if (is_ascii_alnum(c)) return true;
  switch (c) {
    case '-':
    case '.':
    case '_':
    case '~':  // unreserved
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':  // sub-delims
    case ';':
    case '=':
    case ':':
    case '@':
    case '/':
    case '?':
      return true;
    default:
      return false;
  }
}

Error invalid_url(std::string_view why) {
  return make_error("invalid_url", "URL " + std::string(why));
}

}  // namespace

Status validate_domain_name(std::string_view name) {
  const auto fail = [] {
    return make_error("invalid_domain",
                      "domain must be a host name such as example.com (letters, digits and '-' in "
                      "dot-separated labels of at most 63 characters)");
  };
  if (name.empty() || name.size() > kMaxDomainLength) return fail();
  int labels = 0;
  std::size_t start = 0;
  std::string_view last;
  while (true) {
    const std::size_t dot = name.find('.', start);
    last = name.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!valid_label(last)) return fail();
    ++labels;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (labels < 2 || all_digits(last)) return fail();
  return {};
}

bool is_valid_domain_name(std::string_view name) {
  return validate_domain_name(name).ok();
}

Status validate_email(std::string_view email) {
  const std::size_t at = email.find('@');
  if (email.size() <= kMaxEmailLength && at != std::string_view::npos &&
      email.find('@', at + 1) == std::string_view::npos && valid_local_part(email.substr(0, at)) &&
      is_valid_domain_name(email.substr(at + 1)))
    return {};
  return make_error("invalid_email", "email must be an address such as name@example.com");
}

bool is_valid_email(std::string_view email) {
  return validate_email(email).ok();
}

Status validate_http_url(std::string_view url) {
  if (url.size() > kMaxUrlLength) return invalid_url("must be at most 2048 characters");
  for (char c : url)
    if (c <= 0x20 || c >= 0x7f)
      return invalid_url("must not contain spaces, control or non-ASCII characters");
  if (url.find('#') != std::string_view::npos) return invalid_url("must not contain a fragment ('#')");

  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos || !(ascii_iequals(url.substr(0, scheme_end), "http") ||
                                                ascii_iequals(url.substr(0, scheme_end), "https")))
    return invalid_url("must start with http:// or https://");

  const std::string_view after_scheme = url.substr(scheme_end + 3);
  const std::size_t authority_end = after_scheme.find_first_of("/?");
  const std::string_view authority = after_scheme.substr(0, authority_end);
  const std::string_view rest =
      authority_end == std::string_view::npos ? std::string_view() : after_scheme.substr(authority_end);

  if (authority.find('@') != std::string_view::npos) return invalid_url("must not contain user credentials");

  std::string_view host;
  std::string_view port_part;  // after the ':' when present
  bool has_port = false;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos || !valid_ipv6(authority.substr(1, close - 1)))
      return invalid_url("has an invalid IPv6 host");
    host = authority.substr(0, close + 1);
    const std::string_view tail = authority.substr(close + 1);
    if (!tail.empty()) {
      if (tail.front() != ':') return invalid_url("has an invalid host");
      has_port = true;
      port_part = tail.substr(1);
    }
  } else {
    const std::size_t colon = authority.find(':');
    host = authority.substr(0, colon);
    if (colon != std::string_view::npos) {
      has_port = true;
      port_part = authority.substr(colon + 1);
    }
    if (host.empty()) return invalid_url("must have a host");
    if (!ascii_iequals(host, "localhost") && !valid_ipv4(host) && !is_valid_domain_name(host))
      return invalid_url("has an invalid host");
  }

  if (has_port) {
    if (port_part.empty() || port_part.size() > 5 || !all_digits(port_part))
      return invalid_url("has an invalid port");
    int port = 0;
    for (char c : port_part) port = port * 10 + (c - '0');
    if (port < 1 || port > 65535) return invalid_url("has an invalid port");
  }

  for (std::size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (c == '%') {
      if (i + 2 >= rest.size() || !is_ascii_hex_digit(rest[i + 1]) || !is_ascii_hex_digit(rest[i + 2]))
        return invalid_url("has an invalid percent escape");
      i += 2;
    } else if (!is_path_or_query_char(c)) {
      return invalid_url("has a character that must be percent-encoded");
    }
  }
  return {};
}

Status validate_slug(std::string_view slug) {
  bool ok = slug.size() >= 2 && slug.size() <= 63 && slug.front() != '-' && slug.back() != '-' &&
            slug.find("--") == std::string_view::npos;
  for (char c : slug)
    if (!is_ascii_lower(c) && !is_ascii_digit(c) && c != '-') ok = false;
  if (ok) return {};
  return make_error(
      "invalid_slug",
      "slug must be 2 to 63 characters of a-z, 0-9 and single '-' inside (for example acme-foods)");
}

}  // namespace core
