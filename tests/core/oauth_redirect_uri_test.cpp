// Which redirect URIs a client may register (core/oauth/redirect_uri.h, RFC 9700 §2.1).

#include <doctest/doctest.h>

#include "core/oauth/redirect_uri.h"

using core::oauth::validate_redirect_uri;

TEST_CASE("https is accepted for any host; plain http only for loopback hosts") {
  for (const char* ok : {"https://rp.example/cb", "https://rp.example:8443/cb?x=1", "http://127.0.0.1/cb",
                         "http://127.0.0.1:49152/cb", "http://[::1]:8080/cb", "http://localhost/cb",
                         "http://LOCALHOST:3000/cb", "HTTPS://rp.example/cb"})
    CHECK_MESSAGE(validate_redirect_uri(ok).ok(), ok);
  for (const char* bad : {"http://rp.example/cb", "http://127.0.0.2/cb", "http://localhost.evil.example/cb",
                          "http://[::2]/cb", "http://10.0.0.1:8080/cb", "http://example.com?localhost"}) {
    auto s = validate_redirect_uri(bad);
    CHECK_FALSE_MESSAGE(s.ok(), bad);
    if (!s.ok()) {
      CHECK(s.error().code == "invalid_url");
      CHECK(s.error().message ==
            "must use https; plain http is allowed only for 127.0.0.1, [::1] and localhost");
    }
  }
}

TEST_CASE("the general URL rules still apply: no fragment, no user info, http(s) only") {
  for (const char* bad : {"https://rp.example/cb#f", "http://user@localhost/cb", "ftp://localhost/cb",
                          "/relative/cb", "com.example.app:/cb"})
    CHECK_FALSE_MESSAGE(validate_redirect_uri(bad).ok(), bad);
}
