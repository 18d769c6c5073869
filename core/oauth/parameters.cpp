#include "core/oauth/parameters.h"

namespace core::oauth {

std::optional<std::string> repeated_parameter(const std::multimap<std::string, std::string>& params) {
  // A multimap keeps equal keys adjacent.
  for (auto it = params.begin(); it != params.end(); ++it) {
    auto next = std::next(it);
    if (next != params.end() && next->first == it->first) return it->first;
  }
  return std::nullopt;
}

}  // namespace core::oauth
