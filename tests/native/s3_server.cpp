#include "tests/native/s3_server.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>

namespace test_s3 {

std::unique_ptr<S3Server> S3Server::start(const std::string& bucket, std::string& failure) {
  static std::atomic<int> counter{0};
  std::unique_ptr<S3Server> s(new S3Server());
  s->directory_ = (std::filesystem::temp_directory_path() /
                   ("s3_server_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                      .string();
  std::filesystem::remove_all(s->directory_);
  std::filesystem::create_directories(s->directory_);
  s->port_ = test_process::free_tcp_port();
  if (s->port_ == 0) {
    failure = "no free port for the S3 server";
    return nullptr;
  }
  test_process::StartOptions options;
  options.capture_stdout = true;
  options.stderr_path = s->directory_ + ".log";
  s->server_ = test_process::ChildProcess::start(
      {"node", S3_SERVER_SCRIPT, std::to_string(s->port_), s->directory_, bucket}, options, failure);
  if (!s->server_) return nullptr;
  // node takes a moment to load s3rver's dependencies.
  auto line = s->server_->read_line(std::chrono::seconds(30));
  if (!line || *line != "ready") {
    failure = "the S3 server did not start (see " + options.stderr_path + ")";
    return nullptr;
  }
  return s;
}

S3Server::~S3Server() {
  server_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(directory_, ignored);
  std::filesystem::remove(directory_ + ".log", ignored);
}

std::string S3Server::endpoint() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

}  // namespace test_s3
