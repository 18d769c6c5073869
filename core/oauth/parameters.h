#pragma once
// RFC 6749 §3.1 and §3.2: "Request and response parameters MUST NOT be included more than once." The
// authorize query and the form bodies of the token, revoke and introspect endpoints are checked with this
// before any parameter is read, so no endpoint ever picks one of two values.

#include <map>
#include <optional>
#include <string>

namespace core::oauth {

// The first (in key order) parameter name that occurs more than once, or nullopt.
std::optional<std::string> repeated_parameter(const std::multimap<std::string, std::string>& params);

}  // namespace core::oauth
