#include "tests/native/probe_servers.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace probe_test {
namespace {

// A TCP socket bound to 127.0.0.1 on a free port; returns the fd and writes the port.
int bind_loopback(int* port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("bind failed");
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *port = ntohs(addr.sin_port);
  return fd;
}

int query_ms(const httplib::Request& req) {
  return req.has_param("ms") ? std::atoi(req.get_param_value("ms").c_str()) : 0;
}

}  // namespace

TargetServer::TargetServer() : server_(std::make_unique<httplib::Server>()) {
  routes();
}

TargetServer::TargetServer(const std::string& cert_file, const std::string& key_file)
    : server_(std::make_unique<httplib::SSLServer>(cert_file.c_str(), key_file.c_str())), tls_(true) {
  routes();
}

TargetServer::~TargetServer() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  closing_cv_.notify_all();
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string TargetServer::url(const std::string& path) const {
  return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) + path;
}

int TargetServer::requests(const std::string& path) const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::count(paths_.begin(), paths_.end(), path));
}

std::string TargetServer::last_method() const {
  std::lock_guard lock(mutex_);
  return last_method_;
}

std::string TargetServer::last_user_agent() const {
  std::lock_guard lock(mutex_);
  return last_user_agent_;
}

void TargetServer::pause_ms(int ms) {
  std::unique_lock lock(mutex_);
  closing_cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return closing_; });
}

void TargetServer::routes() {
  server_->set_tcp_nodelay(true);
  server_->set_logger([this](const httplib::Request& req, const httplib::Response&) {
    std::lock_guard lock(mutex_);
    paths_.push_back(req.path);
  });
  const auto record = [this](const httplib::Request& req) {
    std::lock_guard lock(mutex_);
    last_method_ = req.method;
    last_user_agent_ = req.get_header_value("User-Agent");
  };
  const auto handle = [this, record](const std::string& path, httplib::Server::Handler handler) {
    auto wrapped = [record, handler](const httplib::Request& req, httplib::Response& res) {
      record(req);
      handler(req, res);
    };
    server_->Get(path, wrapped);  // GET and HEAD
    server_->Post(path, wrapped);
  };
  handle("/ok", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("all systems operational", "text/plain");
  });
  handle("/fail", [](const httplib::Request&, httplib::Response& res) {
    res.status = 500;
    res.set_content("broken", "text/plain");
  });
  handle("/slow", [this](const httplib::Request& req, httplib::Response& res) {
    pause_ms(query_ms(req));
    res.set_content("late", "text/plain");
  });
  handle("/redirect", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/ok", 302); });
  const std::string filler(2 * 1024 * 1024, 'x');
  handle("/big", [filler](const httplib::Request&, httplib::Response& res) {
    res.set_content(filler + "MARKER", "text/plain");
  });
  handle("/big-early", [filler](const httplib::Request&, httplib::Response& res) {
    res.set_content("MARKER" + filler, "text/plain");
  });
  handle("/hold", [this](const httplib::Request& req, httplib::Response& res) {
    const int now = ++in_flight_;
    int peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
    pause_ms(query_ms(req));
    --in_flight_;
    res.set_content("held", "text/plain");
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("test server could not bind");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() is a no-op until the accept loop runs, so wait for it before anyone may destroy the server.
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

SilentServer::SilentServer() {
  fd_ = bind_loopback(&port_);
  ::listen(fd_, 64);
}

SilentServer::~SilentServer() {
  ::close(fd_);
}

TrickleServer::TrickleServer() {
  fd_ = bind_loopback(&port_);
  ::listen(fd_, 16);
  thread_ = std::thread([this] { serve(); });
}

TrickleServer::~TrickleServer() {
  closing_ = true;
  ::shutdown(fd_, SHUT_RDWR);  // wakes the accept
  thread_.join();
  ::close(fd_);
}

void TrickleServer::serve() {
  while (!closing_) {
    const int client = ::accept(fd_, nullptr, nullptr);
    if (client < 0) return;
    char request[4096];
    (void)::recv(client, request, sizeof request, 0);
    const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/plain\r\n\r\n";
    bool open = ::send(client, head.data(), head.size(), MSG_NOSIGNAL) > 0;
    for (int sent = 0; open && sent < 1000 && !closing_; ++sent) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      open = ::send(client, "x", 1, MSG_NOSIGNAL) > 0;
    }
    ::close(client);
  }
}

int closed_port() {
  int port = 0;
  ::close(bind_loopback(&port));
  return port;
}

SelfSignedCert::SelfSignedCert(const std::string& subject_alt_name) {
  static std::atomic<int> counter{0};
  dir_ = (std::filesystem::temp_directory_path() /
          ("probe_cert_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
             .string();
  std::filesystem::create_directories(dir_);
  cert_ = dir_ + "/cert.pem";
  key_ = dir_ + "/key.pem";
  const std::string command =
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1"
      " -subj /CN=probe-test -addext subjectAltName=" +
      subject_alt_name + " -keyout " + key_ + " -out " + cert_ + " 2>/dev/null";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("openssl req failed");
}

SelfSignedCert::~SelfSignedCert() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace probe_test
