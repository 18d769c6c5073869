#pragma once
// The relying party's HTTP client (libcurl): GET and POST of a form to an OpenID provider's endpoints, with
// the rules every request of the client obeys (docs/oidc-client.md, "Transport"):
// - https with certificate and host name verification; plain http only to a loopback host (127.0.0.1,
//   [::1], localhost), which is where tests and local development run a provider;
// - redirects are never followed: discovery, JWKS, token and userinfo URLs are the exact ones the
//   provider publishes, and a token request must not be replayed, with its credentials, elsewhere;
// - a connect timeout, a total timeout, and a cap on the response body.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"

namespace native::oidc {

struct FetchOptions {
  std::chrono::milliseconds connect_timeout{5'000};
  std::chrono::milliseconds total_timeout{10'000};  // the whole exchange, connect included
  std::size_t max_body_bytes = 1024 * 1024;
};

// A response as received, whatever its status: each caller decides which statuses it accepts.
struct HttpResponse {
  int status = 0;
  std::string content_type;  // the Content-Type header, "" when absent
  std::string body;
};

// Whether the client may send a request to `url`: an absolute https URL, or an http URL whose host is
// 127.0.0.1, [::1] or localhost; no user info. Errors: `oidc_insecure_url` (http to another host),
// `oidc_invalid_url` (not a URL, another scheme, user info).
core::Status check_fetch_url(std::string_view url);

// GET `url` with `Accept: application/json`, and `Authorization: <authorization>` when that is not empty.
// Errors: those of check_fetch_url; `oidc_unreachable` (name resolution, connection, TLS, timeout, a
// broken connection; the message names the URL and what failed); `oidc_bad_response` (the body exceeds
// options.max_body_bytes). Messages never contain `authorization`. Thread-safe; never throws.
core::Result<HttpResponse> http_get(std::string_view url, std::string_view authorization = {},
                                    const FetchOptions& options = {});

// POST `form_body` (already application/x-www-form-urlencoded) to `url`, otherwise as http_get. Messages
// never contain the body or `authorization`.
core::Result<HttpResponse> http_post_form(std::string_view url, std::string_view form_body,
                                          std::string_view authorization = {},
                                          const FetchOptions& options = {});

}  // namespace native::oidc
