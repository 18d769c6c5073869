#pragma once
// One HTTP/1.1 connection of the transport (edge/http/http_server.h): internal to edge/http.
//
// Everything a connection does runs on the I/O thread of its io_context, so it needs no lock; only the
// handler of a request that is not inline runs on a worker, while the connection waits without reading.
// A connection moves through these phases:
//   idle       keep-alive, no byte of the next request yet (idle_timeout): a read into the buffer kept from
//              the last request (at most 16 KiB), or for a new connection only a socket wait, no buffer
//   head       request line and header fields (header_timeout from the first byte)
//   body       the body, piece by piece into Request::body or the route's sink (body_timeout per piece)
//   handling   the handler runs (no deadline of the transport)
//   writing    the response (send_timeout per piece)
//   streaming  a Server-Sent Events response (heartbeat ticks; send_timeout per piece)
//   lingering  after a response sent with a body left unread: the rest is read and dropped for a short
//              while before closing, so the client sees the answer instead of a reset

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "edge/http/event_stream.h"
#include "edge/http/http_server.h"

namespace edge::http_detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

class Connection;

// What the server and its connections share. Outlives every connection (HttpServer::serve destroys the
// io_contexts, and with them every connection, before returning).
struct ServerState {
  ServerState(HttpServerOptions o, HttpService& s) : options(std::move(o)), service(s) {}

  HttpServerOptions options;
  HttpService& service;
  std::optional<asio::thread_pool> workers;
  std::atomic<std::size_t> connections{0};
  std::atomic<bool> stopping{false};

  // Every open connection, for shutdown.
  std::mutex registry_mutex;
  std::unordered_map<Connection*, std::weak_ptr<Connection>> registry;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(ServerState& state, asio::io_context& io, tcp::socket socket);
  ~Connection();

  // Registers the connection and waits for its first request. On the connection's I/O thread.
  void start();
  // The server is stopping: an idle connection closes now, an event stream ends, a request in flight is
  // answered and then the connection closes. On the connection's I/O thread.
  void shutdown();
  // Closes the socket whatever the phase. On the connection's I/O thread.
  void close();

 private:
  enum class Phase { idle, head, body, handling, writing, streaming, lingering, closed };

  // Enters `phase` with its deadline `after` from now (phases without one: no_deadline()).
  void arm(Phase phase, std::chrono::milliseconds after);
  void no_deadline(Phase phase);
  // Waits (again) until deadline_, replacing the pending wait.
  void wait_for_deadline();
  void on_timer_fired(beast::error_code ec, std::uint64_t generation);
  void on_timer();

  void read_next();
  void read_head();
  void on_head(beast::error_code ec);
  void read_body();
  void on_body(beast::error_code ec);
  void run();

  // Sends a response and continues with the next request (or closes).
  void respond(Response res);
  void refuse(int status, std::string_view reason);
  template <class Message>
  void fill_head(Message& m, Response& res);
  void send_body(Response& res);
  void send_file(Response& res);
  void write_file();
  void start_stream(Response& res);
  void pump_events();
  void write_event_bytes(std::string bytes);
  void watch_for_close();
  void finish_response(beast::error_code ec);
  void linger();

  void log(int status) const;

  ServerState& s_;
  asio::io_context& io_;
  tcp::socket socket_;
  // One deadline per connection. The timer waits for the earliest deadline set since it last fired and is
  // re-armed only when a phase needs an earlier one: a request answered at once moves the deadline without
  // a system call, and a timer that fires before the current deadline just waits again.
  asio::steady_timer timer_;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  std::chrono::steady_clock::time_point timer_at_ = std::chrono::steady_clock::time_point::max();
  std::uint64_t timer_generation_ = 0;
  std::string remote_;
  Phase phase_ = Phase::idle;
  bool timed_out_ = false;
  bool keep_alive_ = true;

  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::buffer_body>> parser_;
  Request req_;
  RequestPlan plan_;
  std::chrono::steady_clock::time_point started_;
  std::uint64_t body_received_ = 0;
  bool body_into_string_ = false;  // the body is read straight into req_.body (Content-Length known)
  std::unique_ptr<char[]> piece_;  // body pieces, dropped while idle

  // The response being written.
  int status_ = 0;
  std::optional<http::response<http::string_body>> out_;
  std::optional<http::response<http::empty_body>> head_;
  std::optional<http::response_serializer<http::empty_body>> head_writer_;
  int file_ = -1;
  std::uint64_t file_offset_ = 0, file_left_ = 0;
  std::string file_head_;  // a file response's head, sent before its bytes
  std::size_t file_head_sent_ = 0;

  // Server-Sent Events.
  std::shared_ptr<EventStream> stream_;
  bool chunked_ = false, stream_writing_ = false;
  std::atomic<bool> wake_posted_{false};
  std::string stream_out_;
  std::chrono::steady_clock::time_point last_write_;
  char watch_[256];
  std::uint64_t drained_ = 0;
};

}  // namespace edge::http_detail
