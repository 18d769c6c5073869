#pragma once
// OAuth scope strings (RFC 6749 §3.3) as sorted, de-duplicated sets.
//
// Grammar: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), tokens separated by the space character (%x20)
// only. Decisions where the RFC's `scope-token *( SP scope-token )` is stricter than real clients
// (docs/oauth-crypto.md):
// - runs of spaces and leading or trailing spaces are tolerated (`openid  profile `, a common slip of
//   form-encoding clients, means the same set); every other separator (tab, newline, ...) is refused;
// - a string with no token at all (empty, or only spaces) is refused;
// - tokens compare byte-wise and case-sensitively (`OpenID` is not `openid`).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace core {

// Longest scope string parse_scope accepts, in bytes: far above any real request, low enough that a
// hostile query string cannot make the server sort megabytes.
inline constexpr std::size_t kMaxScopeLength = 4096;

struct ScopeSet {
  std::vector<std::string> items;  // sorted byte-wise, no duplicates, no empty strings

  bool empty() const { return items.empty(); }
  bool contains(std::string_view token) const;
  // Every item of this set is in `other` (the empty set is a subset of every set).
  bool subset_of(const ScopeSet& other) const;
  // Items joined by one space, in sorted order: the canonical form to store and to answer in `scope`.
  std::string to_string() const;

  friend bool operator==(const ScopeSet&, const ScopeSet&) = default;
};

// Errors: `invalid_scope` for a string without tokens, a character outside the grammar, or more than
// kMaxScopeLength bytes.
Result<ScopeSet> parse_scope(std::string_view text);

ScopeSet scope_union(const ScopeSet& a, const ScopeSet& b);

}  // namespace core
