#pragma once
// Syntax checks for the identifiers users type: domain names, email addresses, http(s) URLs and slugs.
// Each answers Ok or an Error with a stable code and a message that does not echo the input (the input may
// be arbitrary bytes). The checks are syntactic only: whether a domain resolves or a URL points at a
// private network is decided where the network is (edge/native).

#include <string_view>

#include "core/result.h"

namespace core {

// A DNS host name (RFC 1123 §2.1 labels): 1..253 characters in all, at least two labels separated by '.',
// each label 1..63 characters of A-Z a-z 0-9 and '-' not starting or ending with '-', and a top-level
// label that is not all digits (so an IPv4 address is not a domain name). No trailing root dot, no
// underscores, no Unicode (internationalised names are given in their xn-- form). Case is accepted as
// typed; callers compare and store domain names lower-cased.
// Errors: `invalid_domain`.
Status validate_domain_name(std::string_view name);
bool is_valid_domain_name(std::string_view name);

// A practical email address: `local@domain` with exactly one '@', at most 254 characters in all
// (RFC 5321 §4.5.3.1.3 path limit less the angle brackets), a local part of 1..64 characters in RFC 5322
// dot-atom form (A-Z a-z 0-9 and ! # $ % & ' * + - / = ? ^ _ ` { | } ~, with single dots between atoms, not
// first or last), and a domain that passes validate_domain_name. Quoted local parts, IP-literal domains and
// non-ASCII addresses are refused: no mailbox the platform deals with needs them.
// Errors: `invalid_email`.
Status validate_email(std::string_view email);
bool is_valid_email(std::string_view email);

// An absolute http or https URL, as used for webhooks, restart targets and OAuth redirect URIs:
//   scheme   `http` or `https` (any case), followed by `://`
//   host     a domain name (validate_domain_name), `localhost`, a dotted IPv4 address (four decimal parts
//            0..255 without leading zeros) or a bracketed IPv6 address (RFC 4291 text, no zone id)
//   port     optional `:<1..65535>`
//   rest     optional path and query of RFC 3986 characters (unreserved, sub-delims, ':', '@', '/', '?',
//            and %XX escapes)
// Refused: userinfo (`user:pass@host`: credentials do not belong in a stored URL and hide the real host),
// any fragment (`#`: RFC 6749 §3.1.2 forbids it in redirect URIs and a server never sees it), whitespace,
// control and non-ASCII characters, and URLs over 2048 characters.
// Errors: `invalid_url`.
Status validate_http_url(std::string_view url);

// A slug (company and bucket names in paths): 2..63 characters of a-z 0-9 and '-', not starting or ending
// with '-', and no "--" (which also keeps slugs clear of punycode-like `xn--` prefixes).
// Errors: `invalid_slug`.
Status validate_slug(std::string_view slug);

}  // namespace core
