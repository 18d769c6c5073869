#include "core/scope.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace core;

namespace {

std::vector<std::string> items(std::string_view text) {
  return parse_scope(text).value().items;
}
std::string code_of(const Result<ScopeSet>& r) {
  return r ? "ok" : r.error().code;
}

}  // namespace

TEST_CASE("parse_scope: sorted, de-duplicated, case-sensitive") {
  CHECK(items("openid") == std::vector<std::string>{"openid"});
  CHECK(items("profile openid email") == std::vector<std::string>{"email", "openid", "profile"});
  CHECK(items("openid openid profile openid") == std::vector<std::string>{"openid", "profile"});
  CHECK(items("OpenID openid") == std::vector<std::string>{"OpenID", "openid"});
  CHECK(items("https://api.example/read x:y!#$[]{}~") ==
        std::vector<std::string>{"https://api.example/read", "x:y!#$[]{}~"});
  CHECK(parse_scope("profile openid email").value().to_string() == "email openid profile");
}

TEST_CASE("parse_scope: runs of spaces and leading or trailing spaces are tolerated") {
  CHECK(items("openid  profile") == std::vector<std::string>{"openid", "profile"});
  CHECK(items(" openid profile ") == std::vector<std::string>{"openid", "profile"});
  CHECK(parse_scope("   openid   ").value().to_string() == "openid");
}

TEST_CASE("parse_scope refuses empty scopes and characters outside the RFC 6749 grammar") {
  const std::string_view bad_scopes[] = {
      "",         " ",    "   ",  "openid\tprofile", "openid\nprofile",
      "openid\r", "a\"b", "a\\b", "caf\xc3\xa9",     std::string_view("a\0b", 3),
      "\x7f"};
  for (std::string_view bad : bad_scopes) {
    CAPTURE(std::string(bad));
    CHECK(code_of(parse_scope(bad)) == "invalid_scope");
  }
  CHECK(code_of(parse_scope(std::string(kMaxScopeLength, 'a'))) == "ok");
  CHECK(code_of(parse_scope(std::string(kMaxScopeLength + 1, 'a'))) == "invalid_scope");
}

TEST_CASE("ScopeSet: contains, subset_of, union") {
  const ScopeSet granted = parse_scope("openid profile email").value();
  CHECK(granted.contains("openid"));
  CHECK(granted.contains("email"));
  CHECK_FALSE(granted.contains("offline_access"));
  CHECK_FALSE(granted.contains("open"));
  CHECK_FALSE(granted.contains(""));

  CHECK(parse_scope("openid").value().subset_of(granted));
  CHECK(parse_scope("email openid profile").value().subset_of(granted));
  CHECK_FALSE(parse_scope("openid offline_access").value().subset_of(granted));
  CHECK(ScopeSet{}.subset_of(granted));
  CHECK(ScopeSet{}.subset_of(ScopeSet{}));
  CHECK_FALSE(granted.subset_of(ScopeSet{}));

  const ScopeSet both = scope_union(granted, parse_scope("offline_access openid").value());
  CHECK(both.to_string() == "email offline_access openid profile");
  CHECK(scope_union(ScopeSet{}, ScopeSet{}).empty());
  CHECK(ScopeSet{}.to_string().empty());
  CHECK(scope_union(granted, granted) == granted);
}
