#pragma once
// ASCII-only text helpers. Locale-independent on purpose: <cctype> and std::tolower consult the C locale
// (and are undefined for negative chars), while protocol text (domain names, schemes, permission names)
// is compared by ASCII rules whatever the process locale is.

#include <string>
#include <string_view>

namespace core {

inline constexpr bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
inline constexpr bool is_ascii_lower(char c) {
  return c >= 'a' && c <= 'z';
}
inline constexpr bool is_ascii_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
inline constexpr bool is_ascii_alpha(char c) {
  return is_ascii_lower(c) || is_ascii_upper(c);
}
inline constexpr bool is_ascii_alnum(char c) {
  return is_ascii_alpha(c) || is_ascii_digit(c);
}
inline constexpr bool is_ascii_hex_digit(char c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline constexpr char to_ascii_lower(char c) {
  return is_ascii_upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}

// Space, TAB, CR, LF, FF, VT.
inline constexpr bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// `text` without leading and trailing ASCII whitespace (is_ascii_space).
std::string_view trim_ascii_space(std::string_view text);

// `text` with A-Z mapped to a-z; every other byte (including UTF-8) unchanged.
std::string to_ascii_lower(std::string_view text);

// Equal ignoring the case of A-Z only.
bool ascii_iequals(std::string_view a, std::string_view b);

// RFC 3986 percent-encoding: every byte except the unreserved characters (A-Z a-z 0-9 - . _ ~) and those in
// `also_literal` becomes %XX (upper-case hex). For query values, form fields and URI labels alike.
std::string percent_encode(std::string_view text, std::string_view also_literal = {});

// `text` in single quotes, made safe to put in an error message: bytes outside printable ASCII become '?'
// (the input may be arbitrary bytes from a query string, and messages end up in JSON responses), and text
// longer than 64 bytes is cut to 64 followed by "...".
std::string quote_for_message(std::string_view text);

}  // namespace core
