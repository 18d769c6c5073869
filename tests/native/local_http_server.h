#pragma once
// A cpp-httplib server on 127.0.0.1 and a free port, in a thread of the test. The test adds its routes
// before start(); its handlers call record() first, so a request is on record before its answer leaves.

#include <httplib.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace test_http {

struct RecordedRequest {
  std::string method;
  std::string path;
  httplib::Params params;
  httplib::Headers headers;
  std::string body;

  std::string header(const std::string& name) const {
    auto it = headers.find(name);  // httplib::Headers compares names case-insensitively
    return it == headers.end() ? std::string() : it->second;
  }
  bool has_header(const std::string& name) const { return headers.find(name) != headers.end(); }
  std::string param(const std::string& name) const {
    auto it = params.find(name);
    return it == params.end() ? std::string() : it->second;
  }
};

class LocalHttpServer {
 public:
  LocalHttpServer() = default;
  ~LocalHttpServer() {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  LocalHttpServer(const LocalHttpServer&) = delete;
  LocalHttpServer& operator=(const LocalHttpServer&) = delete;

  httplib::Server& server() { return server_; }

  // Binds and serves; the port accepts connections when this returns.
  void start() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() before the accept loop runs would be lost and the join would hang.
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  int port() const { return port_; }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  void record(const httplib::Request& request) {
    std::lock_guard lock(mutex_);
    requests_.push_back({request.method, request.path, request.params, request.headers, request.body});
  }

  std::vector<RecordedRequest> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  std::vector<RecordedRequest> requests_;
};

}  // namespace test_http
