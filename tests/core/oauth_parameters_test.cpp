// RFC 6749 §3.1/§3.2: parameters must not be repeated (core/oauth/parameters.h).

#include <doctest/doctest.h>

#include "core/oauth/parameters.h"

using core::oauth::repeated_parameter;

TEST_CASE("repeated_parameter names the first parameter given more than once") {
  CHECK_FALSE(repeated_parameter({}).has_value());
  CHECK_FALSE(repeated_parameter({{"grant_type", "x"}, {"code", "y"}}).has_value());
  CHECK(repeated_parameter({{"grant_type", "a"}, {"code", "y"}, {"code", "z"}}) == "code");
  // Same value twice is still twice.
  CHECK(repeated_parameter({{"token", "t"}, {"token", "t"}}) == "token");
  CHECK(repeated_parameter({{"b", "1"}, {"a", "1"}, {"b", "2"}, {"a", "2"}}) == "a");
  // An empty value counts as given.
  CHECK(repeated_parameter({{"scope", ""}, {"scope", "openid"}}) == "scope");
}
