#pragma once
// The HTTP transport: cpp-httplib behind a small seam. Everything above it sees edge::Request and
// edge::Response only.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "core/result.h"
#include "edge/http/message.h"

namespace edge {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0 picks a free port
  std::size_t threads = 64;
  // The transport refuses bodies above this before any handler runs (routes have their own smaller limits).
  std::size_t max_payload = 110u << 20;
};

class HttpServer {
 public:
  // Called on a worker thread for every request; must not throw (exceptions become a 500).
  using Dispatch = std::function<Response(Request&)>;
  // Builds the error response for a request the transport rejected by itself (malformed HTTP, payload
  // over max_payload): status and a short reason.
  using TransportError = std::function<Response(const Request&, int status, std::string_view reason)>;

  HttpServer(HttpServerOptions options, Dispatch dispatch, TransportError on_error);
  ~HttpServer();

  // Binds the socket. Returns the bound port, or `bind_failed`.
  core::Result<int> bind();
  // Serves until stop(); blocks.
  void serve();
  // Makes serve() return after in-flight requests finish. Safe from any thread.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace edge
