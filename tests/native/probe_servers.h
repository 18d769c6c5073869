#pragma once
// Loopback servers the probe tests measure against (no doctest inside): an httplib server, plain or TLS,
// with the routes below; a port that accepts connections and never answers; one that trickles a body; a
// closed port; self-signed certificates made with the openssl command.

#include <httplib.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace probe_test {

// Routes (GET, POST and HEAD each unless noted):
//   /ok           200 "all systems operational"
//   /fail         500
//   /slow?ms=N    200 after N ms (cut short when the server closes)
//   /redirect     302 to /ok
//   /big          2 MiB of 'x' followed by "MARKER"; /big-early: "MARKER" first, then 2 MiB
//   /hold?ms=N    200 after N ms, counting requests in flight (in_flight_peak)
class TargetServer {
 public:
  // Plain http; with cert_file and key_file, https.
  TargetServer();
  TargetServer(const std::string& cert_file, const std::string& key_file);
  ~TargetServer();
  TargetServer(const TargetServer&) = delete;
  TargetServer& operator=(const TargetServer&) = delete;

  int port() const { return port_; }
  // "http(s)://127.0.0.1:<port><path>"
  std::string url(const std::string& path) const;

  int in_flight_peak() const { return peak_.load(); }
  int requests(const std::string& path) const;
  std::string last_method() const;
  std::string last_user_agent() const;

 private:
  void routes();
  void pause_ms(int ms);

  std::unique_ptr<httplib::Server> server_;
  bool tls_ = false;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable closing_cv_;
  bool closing_ = false;
  std::vector<std::string> paths_;
  std::string last_method_;
  std::string last_user_agent_;
  std::atomic<int> in_flight_{0};
  std::atomic<int> peak_{0};
};

// A listening socket that is never accepted from: the kernel completes the handshake, the request is sent,
// nothing ever comes back.
class SilentServer {
 public:
  SilentServer();
  ~SilentServer();
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// Accepts, answers with headers announcing a 1000-byte body, then sends one byte of it every 200 ms until
// the client leaves: every single read succeeds, the response never completes in time.
class TrickleServer {
 public:
  TrickleServer();
  ~TrickleServer();
  int port() const { return port_; }

 private:
  void serve();

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> closing_{false};
  std::thread thread_;
};

// A loopback port nobody listens on (bound, then closed).
int closed_port();

// A self-signed certificate and its key, written to a fresh directory removed on destruction.
class SelfSignedCert {
 public:
  // subject_alt_name as openssl's -addext takes it, e.g. "DNS:localhost,IP:127.0.0.1".
  explicit SelfSignedCert(const std::string& subject_alt_name);
  ~SelfSignedCert();
  const std::string& cert_file() const { return cert_; }
  const std::string& key_file() const { return key_; }

 private:
  std::string dir_, cert_, key_;
};

}  // namespace probe_test
