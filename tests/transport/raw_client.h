#pragma once
// A deliberately low-level HTTP/1.1 client for transport tests: it writes exactly the bytes a test gives
// it (trickled headers, pipelined requests, broken framing) and reads responses with a deadline.

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace transport_test {

struct RawResponse {
  int status = 0;
  std::multimap<std::string, std::string> headers;  // names lower case
  std::string body;

  std::string header(const std::string& lower_name) const;
  std::size_t count(const std::string& lower_name) const { return headers.count(lower_name); }
};

class RawConn {
 public:
  // Connects to 127.0.0.1:port (TCP_NODELAY). Check ok() afterwards.
  explicit RawConn(int port);
  ~RawConn();
  RawConn(RawConn&& other) noexcept;
  RawConn& operator=(RawConn&&) = delete;

  bool ok() const { return fd_ >= 0; }
  // Writes all of `bytes`; false when the peer is gone.
  bool send(std::string_view bytes);
  // Reads one response: head, then a body framed by Content-Length, chunked coding, or the end of the
  // connection. `head_only` for answers to HEAD. nullopt when the deadline passes or the connection ends
  // first.
  std::optional<RawResponse> read_response(std::chrono::milliseconds deadline = std::chrono::seconds(10),
                                           bool head_only = false);
  // Sends `bytes` and reads one response (nullopt when the send fails or no whole response arrives in time).
  std::optional<RawResponse> exchange(std::string_view bytes,
                                      std::chrono::milliseconds deadline = std::chrono::seconds(10),
                                      bool head_only = false) {
    if (!send(bytes)) return std::nullopt;
    return read_response(deadline, head_only);
  }
  // Reads until at least `n` bytes are buffered, or the deadline; returns what is buffered (and keeps it).
  const std::string& read_at_least(std::size_t n, std::chrono::milliseconds deadline);
  // Waits for the server to close the connection: true when it did within the deadline (bytes that
  // arrive meanwhile are kept in the buffer).
  bool wait_closed(std::chrono::milliseconds deadline);
  // Bytes received and not yet consumed by read_response.
  std::string& buffered() { return in_; }
  void close();

 private:
  // Reads whatever arrives within the deadline into in_; false on EOF, error or time-out.
  bool fill(std::chrono::steady_clock::time_point until);

  int fd_ = -1;
  std::string in_;
  bool eof_ = false;
};

}  // namespace transport_test
