#include "core/same_site_path.h"

#include <doctest/doctest.h>

#include <string_view>

using core::is_same_site_path;

namespace {

struct Case {
  std::string_view next;
  bool same_site;
};

}  // namespace

TEST_CASE("next: only paths that a browser resolves to this site") {
  using namespace std::string_view_literals;
  const Case cases[] = {
      // Paths of the site, with queries and fragments.
      {"/", true},
      {"/account", true},
      {"/oauth/authorize?client_id=app&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=a%2Fb", true},
      {"/account#companies", true},
      {"/@evil.example", true},  // a path segment, not userinfo: stays on the site
      {"/a/b%20c", true},
      // Absolute and scheme-relative URLs.
      {"", false},
      {"account", false},
      {"https://evil.example/", false},
      {"https:evil.example", false},
      {"http://platform.test@evil.example/", false},
      {"javascript:alert(1)", false},
      {"JavaScript:alert(1)", false},
      {"data:text/html,x", false},
      {"//evil.example", false},
      {"//platform.test@evil.example", false},
      // Backslashes, which browsers read as '/'.
      {"/\\evil.example", false},
      {"\\/evil.example", false},
      {"\\\\evil.example", false},
      {"/a\\b", false},
      // Tabs, newlines and other controls, which browsers drop.
      {"/\t/evil.example", false},
      {"/\n/evil.example", false},
      {"/\r\n/evil.example", false},
      {"\t//evil.example", false},
      {"/account\r\nSet-Cookie: x=1", false},
      {"/\0/evil.example"sv, false},
      {"/\x7f/evil.example", false},
      {" //evil.example", false},
      {"/ /evil.example", false},
      {"/\xc3\xa7", false},
      // Percent-encoded separators in the path, one decoding away from `//`.
      {"/%2F/evil.example", false},
      {"/%2f/evil.example", false},
      {"/%5C/evil.example", false},
      {"/%5c/evil.example", false},
      {"/%09/evil.example", false},
      {"/a%2Fb?x=1", false},
      {"/a?next=%2F%2Fevil.example", true},  // the query is not the path
      {"/a#%2F", true},
      {"/%2", true},  // not an escape
  };
  for (const Case& c : cases) CHECK_MESSAGE(is_same_site_path(c.next) == c.same_site, "next: ", c.next);
}
