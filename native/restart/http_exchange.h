#pragma once
// One HTTP request of a restart target (HTTP targets and the deploy route), over libcurl: http or https
// (certificates and host names verified), redirects never followed (a 3xx is the answer: a restart request
// with its credentials must not be replayed elsewhere), one deadline for the whole exchange, connect
// included, and a cap on the response body that is kept.

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace native::restart {

struct HttpRequest {
  std::string method = "GET";  // GET or POST
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // sent as given
  std::string body;                                          // POST only; may be empty
  std::chrono::milliseconds timeout{10'000};
  std::size_t max_body_bytes = 64 * 1024;
};

struct HttpExchange {
  enum class End { response, timeout, error };
  End end = End::error;
  int status = 0;    // `response` only
  std::string body;  // `response` only; at most max_body_bytes, the rest is not read
  // `timeout` and `error`: libcurl's reason (host, port and what failed; never request headers or body).
  std::string error;
};

// Never throws; thread-safe. An environment proxy applies except to loopback hosts, which are this machine.
HttpExchange http_exchange(const HttpRequest& request);

}  // namespace native::restart
