#include "core/validate.h"

#include <doctest/doctest.h>

#include <string>

using namespace core;

namespace {

std::string label(std::size_t n) {
  return std::string(n, 'a');
}

}  // namespace

TEST_CASE("validate_domain_name accepts RFC 1123 host names") {
  for (std::string_view good :
       {"example.com", "mail.example.com", "EXAMPLE.Com", "a.co", "xn--bcher-kva.example", "my-shop.com.tr",
        "1.example", "123.456.example", "a1.b2.c3d", "example.xn--p1ai"}) {
    CHECK_MESSAGE(validate_domain_name(good).ok(), good);
  }
  // Longest label (63) and longest name (253 = 63 + 1 + 63 + 1 + 63 + 1 + 61).
  CHECK(validate_domain_name(label(63) + ".com").ok());
  const std::string longest = label(63) + "." + label(63) + "." + label(63) + "." + label(61);
  REQUIRE(longest.size() == 253);
  CHECK(validate_domain_name(longest).ok());
}

TEST_CASE("validate_domain_name refuses everything else") {
  for (std::string_view bad :
       {"", "com", "localhost", "example.", ".example.com", "example..com", "-example.com", "example-.com",
        "exa_mple.com", "exa mple.com", "example.com/", "1.2.3.4", "example.123",
        "b\xc3\xbc"
        "cher.example",
        "example.com:80", "*.example.com"}) {
    auto s = validate_domain_name(bad);
    CHECK_MESSAGE(!s.ok(), bad);
    if (!s.ok()) CHECK(s.error().code == "invalid_domain");
  }
  CHECK_FALSE(validate_domain_name(label(64) + ".com").ok());
  const std::string too_long = label(63) + "." + label(63) + "." + label(63) + "." + label(62);
  REQUIRE(too_long.size() == 254);
  CHECK_FALSE(validate_domain_name(too_long).ok());
  CHECK_FALSE(is_valid_domain_name("example"));
  CHECK(is_valid_domain_name("example.org"));
}

TEST_CASE("validate_email accepts practical addresses") {
  for (std::string_view good : {"a@example.com", "alice@example.com", "Alice.Smith@Example.COM",
                                "a+tag@example.com", "first.last@mail.example.co.uk", "o'brien@example.ie",
                                "x_y-z@example.org", "!#$%&'*+-/=?^_`{|}~@example.com", "1234@example.com"}) {
    CHECK_MESSAGE(validate_email(good).ok(), good);
  }
  // 64-character local part; 254 characters in all.
  CHECK(is_valid_email(label(64) + "@example.com"));
  const std::string longest = label(64) + "@" + label(63) + "." + label(63) + "." + label(61);
  REQUIRE(longest.size() == 254);
  CHECK(is_valid_email(longest));
}

TEST_CASE("validate_email refuses malformed addresses") {
  for (std::string_view bad : {"",
                               "@",
                               "alice",
                               "alice@",
                               "@example.com",
                               "alice@@example.com",
                               "alice@bob@example.com",
                               "alice@example",
                               "alice@localhost",
                               ".alice@example.com",
                               "alice.@example.com",
                               "al..ice@example.com",
                               "al ice@example.com",
                               "alice@example..com",
                               "alice@-example.com",
                               "\"alice\"@example.com",
                               "alice@[192.0.2.1]",
                               "al(ice)@example.com",
                               "al,ice@example.com",
                               "alice@example.com ",
                               " alice@example.com",
                               "\xc3\xa4lice@example.com",
                               "alice@example.com\n",
                               "alice@1.2.3.4",
                               "a<b>@example.com"}) {
    auto s = validate_email(bad);
    CHECK_MESSAGE(!s.ok(), bad);
    if (!s.ok()) CHECK(s.error().code == "invalid_email");
  }
  CHECK_FALSE(is_valid_email(label(65) + "@example.com"));
  const std::string too_long = label(64) + "@" + label(63) + "." + label(63) + "." + label(62);
  REQUIRE(too_long.size() == 255);
  CHECK_FALSE(is_valid_email(too_long));
  CHECK(validate_email("x").error().message == "email must be an address such as name@example.com");
}

TEST_CASE("validate_http_url accepts absolute http(s) URLs") {
  for (std::string_view good : {
           "https://example.com",
           "https://example.com/",
           "http://example.com/callback",
           "HTTPS://Example.COM/Callback",
           "https://app.example.com:8443/oauth/callback?x=1&y=two",
           "http://localhost/cb",
           "http://LOCALHOST:3000/cb",
           "http://127.0.0.1:8080/hook",
           "http://10.0.0.255/",
           "http://[::1]:8080/cb",
           "http://[2001:db8::1]/",
           "http://[2001:db8:0:0:0:0:2:1]",
           "http://[::ffff:192.0.2.1]/",
           "http://[::]/",
           "https://example.com/a%20b?q=%E2%82%AC",
           "https://example.com/path;p=1/~user/a-b_c.d!$&'()*+,=:@",
           "https://example.com?only=query",
           "https://example.com:65535/",
           "https://example.com:1/",
       }) {
    CHECK_MESSAGE(validate_http_url(good).ok(), good);
  }
}

TEST_CASE("validate_http_url refuses other URLs with a reason") {
  struct Case {
    std::string_view url;
    std::string_view message;
  };
  const Case cases[] = {
      {"", "URL must start with http:// or https://"},
      {"example.com/cb", "URL must start with http:// or https://"},
      {"ftp://example.com/", "URL must start with http:// or https://"},
      {"javascript:alert(1)//", "URL must start with http:// or https://"},
      {"com.example.app:/callback", "URL must start with http:// or https://"},
      {"https:/example.com", "URL must start with http:// or https://"},
      {"https://example.com/cb#frag", "URL must not contain a fragment ('#')"},
      {"https://example.com/cb#", "URL must not contain a fragment ('#')"},
      {"https://example.com/a b", "URL must not contain spaces, control or non-ASCII characters"},
      {" https://example.com/", "URL must not contain spaces, control or non-ASCII characters"},
      {"https://example.com/\t", "URL must not contain spaces, control or non-ASCII characters"},
      {"https://example.com/\xe2\x82\xac", "URL must not contain spaces, control or non-ASCII characters"},
      {"https://", "URL must have a host"},
      {"https:///path", "URL must have a host"},
      {"https://:443/", "URL must have a host"},
      {"https://user:pass@example.com/", "URL must not contain user credentials"},
      {"https://evil.com@example.com/", "URL must not contain user credentials"},
      {"https://example/", "URL has an invalid host"},
      {"https://exa_mple.com/", "URL has an invalid host"},
      {"https://example.com./", "URL has an invalid host"},
      {"http://256.1.1.1/", "URL has an invalid host"},
      {"http://1.2.3/", "URL has an invalid host"},
      {"http://01.2.3.4/", "URL has an invalid host"},
      {"http://[::1/", "URL has an invalid IPv6 host"},
      {"http://[1:2:3:4:5:6:7]/", "URL has an invalid IPv6 host"},
      {"http://[1:2:3:4:5:6:7:8:9]/", "URL has an invalid IPv6 host"},
      {"http://[1::2::3]/", "URL has an invalid IPv6 host"},
      {"http://[12345::1]/", "URL has an invalid IPv6 host"},
      {"http://[:::1]/", "URL has an invalid IPv6 host"},
      {"http://[fe80::1%25eth0]/", "URL has an invalid IPv6 host"},
      {"http://[example.com]/", "URL has an invalid IPv6 host"},
      {"http://[::1]x/", "URL has an invalid host"},
      {"https://example.com:/", "URL has an invalid port"},
      {"https://example.com:0/", "URL has an invalid port"},
      {"https://example.com:65536/", "URL has an invalid port"},
      {"https://example.com:123456/", "URL has an invalid port"},
      {"https://example.com:8a/", "URL has an invalid port"},
      {"https://example.com/%zz", "URL has an invalid percent escape"},
      {"https://example.com/%4", "URL has an invalid percent escape"},
      {"https://example.com/a<b>", "URL has a character that must be percent-encoded"},
      {"https://example.com/a\\b", "URL has a character that must be percent-encoded"},
      {"https://example.com/{x}", "URL has a character that must be percent-encoded"},
      {"https://example.com/a\"b", "URL has a character that must be percent-encoded"},
  };
  for (const Case& c : cases) {
    auto s = validate_http_url(c.url);
    CHECK_MESSAGE(!s.ok(), c.url);
    if (!s.ok()) {
      CHECK(s.error().code == "invalid_url");
      CHECK_MESSAGE(s.error().message == c.message, c.url);
    }
  }
  CHECK_FALSE(validate_http_url("https://example.com/" + std::string(2029, 'a')).ok());  // 2049 characters
  CHECK(validate_http_url("https://example.com/" + std::string(2028, 'a')).ok());        // 2048 characters
}

TEST_CASE("validate_slug") {
  for (std::string_view good : {"ab", "acme", "acme-foods", "a1", "2go", "a-b-c", "x0-9y"}) {
    CHECK_MESSAGE(validate_slug(good).ok(), good);
  }
  CHECK(validate_slug(label(63)).ok());
  for (std::string_view bad :
       {"", "a", "-ab", "ab-", "a--b", "Acme", "acme_foods", "acme foods", "acme.foods",
        "\xc3\xa4"
        "cme",
        "acme/", "--"}) {
    auto s = validate_slug(bad);
    CHECK_MESSAGE(!s.ok(), bad);
    if (!s.ok()) CHECK(s.error().code == "invalid_slug");
  }
  CHECK_FALSE(validate_slug(label(64)).ok());
}
