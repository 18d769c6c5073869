#pragma once
// The HTTP/1.1 transport: Boost.Beast over Boost.Asio behind a small seam. Everything above it sees
// edge::Request and edge::Response only.
//
// A few I/O threads (one io_context each) own every socket; a connection with no request in flight holds
// no thread, only its socket and a timer. Handlers run on a worker pool sized for requests in flight
// (a write waits there for its group commit's fsync), except those the service marks non-blocking, which
// run on the I/O thread. Requests on one connection are answered in order (pipelining).
//
// Limits, each answered the way RFC 9110/9112 say: headers not complete within header_timeout of their
// first byte: 408 and close; a body that stalls for body_timeout: 408 and close; header bytes or fields
// over the maximum: 431 and close; a body over its route's limit: 413 (at once from Content-Length,
// otherwise as soon as the limit is passed) and close; a client that reads nothing for send_timeout:
// closed; keep-alive connections idle for idle_timeout: closed; connections past max_connections: closed at
// once with a log line.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "core/result.h"
#include "edge/http/body_sink.h"
#include "edge/http/message.h"

namespace edge {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;             // 0 picks a free port
  std::size_t io_threads = 0;  // 0: one per core
  std::size_t worker_threads = 64;
  std::chrono::milliseconds header_timeout{10'000};
  std::chrono::milliseconds body_timeout{30'000};  // longest pause between two pieces of a body
  std::chrono::milliseconds idle_timeout{60'000};  // keep-alive connection without a request
  std::chrono::milliseconds send_timeout{60'000};  // longest a client may leave a response unread
  std::size_t max_header_bytes = 32 << 10;         // request line and header fields together
  std::size_t max_header_count = 100;
  std::size_t max_connections = 10'000;
  // Requests in flight get this long to finish once stop() was called.
  std::chrono::milliseconds shutdown_grace{10'000};
  // Server-Sent Events: a comment line after this long without an event, and the most bytes that may wait
  // for one slow client before its stream is ended.
  std::chrono::milliseconds event_heartbeat{15'000};
  std::size_t event_buffer_limit = 1 << 20;
};

// What to do with a request whose head (request line and header fields) has arrived, decided before any
// body byte is read.
struct RequestPlan {
  // Answer this at once without reading the body (unknown route, method not allowed, ...). A body the
  // client still sends is not read: the connection closes after the answer.
  std::optional<Response> answer;
  // Largest body accepted; past it 413.
  std::size_t max_body = 0;
  // When set the body goes here as it arrives, and Request::body stays empty.
  std::shared_ptr<BodySink> sink;
  // Run the handler on the I/O thread (it never blocks).
  bool run_inline = false;
  // Ask the service's answer_inline() on the I/O thread first; the handler runs only when it declines.
  bool try_inline = false;
  // The service's own note of what it matched, handed back to handle().
  const Handler* handler = nullptr;
  // With try_inline: the route's first try (RouteOptions::inline_answer).
  const InlineAnswer* inline_answer = nullptr;
};

// What the server serves.
class HttpService {
 public:
  virtual ~HttpService() = default;
  // On an I/O thread, once the head arrived (Request::body empty). Must not block.
  virtual RequestPlan plan(Request& head) = 0;
  // Runs a planned request on a worker thread, or on the I/O thread when plan said so. Must not throw.
  virtual Response handle(Request& req, const RequestPlan& plan) = 0;
  // For a plan with try_inline, on the I/O thread once the body arrived: the answer, or nullopt to run
  // handle() as planned. Must not block or throw.
  virtual std::optional<Response> answer_inline(Request& req, const RequestPlan& plan) {
    (void)req;
    (void)plan;
    return std::nullopt;
  }
  // The response for a request the transport refused by itself: 400 malformed, 408 too slow, 413 body too
  // large, 417 unknown expectation, 431 header too large, 500 when a body sink failed. `req` may have only
  // what was parsed (possibly nothing but the remote address).
  virtual Response refuse(const Request& req, int status, std::string_view reason) = 0;
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpService& service);
  ~HttpServer();

  // Binds and listens (backlog SOMAXCONN) and raises the process's open-file limit to its hard limit.
  // Returns the bound port, or `bind_failed`.
  core::Result<int> bind();
  // Serves until stop() has finished; blocks. Runs the I/O threads and the worker pool.
  void serve();
  // Stops accepting, closes idle keep-alive connections and event streams at once, lets requests in flight
  // finish (within shutdown_grace, then closes what is left); serve() then returns. Safe from any thread,
  // idempotent.
  void stop();

  // Connections open right now.
  std::size_t connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace edge
