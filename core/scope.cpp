#include "core/scope.h"

#include <algorithm>
#include <functional>
#include <iterator>

namespace core {
namespace {

// %x21 / %x23-5B / %x5D-7E: printable ASCII except space, `"` and `\`.
bool is_scope_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x21 && u <= 0x7e && c != '"' && c != '\\';
}

}  // namespace

bool ScopeSet::contains(std::string_view token) const {
  return std::binary_search(items.begin(), items.end(), token, std::less<>());
}

bool ScopeSet::subset_of(const ScopeSet& other) const {
  return std::includes(other.items.begin(), other.items.end(), items.begin(), items.end());
}

std::string ScopeSet::to_string() const {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out.push_back(' ');
    out += item;
  }
  return out;
}

Result<ScopeSet> parse_scope(std::string_view text) {
  if (text.size() > kMaxScopeLength) {
    return make_error("invalid_scope", "scope is longer than " + std::to_string(kMaxScopeLength) + " bytes");
  }
  ScopeSet set;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ') {
      // The message does not quote the input: it may hold anything, including control characters.
      if (!is_scope_char(text[i])) {
        return make_error(
            "invalid_scope",
            "scope may only hold printable ASCII other than '\"' and '\\', separated by spaces");
      }
      ++i;
    }
    set.items.emplace_back(text.substr(start, i - start));
  }
  if (set.items.empty()) return make_error("invalid_scope", "scope must name at least one scope");
  std::sort(set.items.begin(), set.items.end());
  set.items.erase(std::unique(set.items.begin(), set.items.end()), set.items.end());
  return set;
}

ScopeSet scope_union(const ScopeSet& a, const ScopeSet& b) {
  ScopeSet out;
  out.items.reserve(a.items.size() + b.items.size());
  std::set_union(a.items.begin(), a.items.end(), b.items.begin(), b.items.end(),
                 std::back_inserter(out.items));
  return out;
}

}  // namespace core
