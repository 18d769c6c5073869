#pragma once
// A real S3-compatible server on 127.0.0.1 and a free port for the storage tests (tests/native/s3_server.mjs:
// npm @20minutes/s3rver, which verifies AWS Signature V4), its objects in a fresh folder.

#include <memory>
#include <string>

#include "tests/native/child_process.h"

namespace test_s3 {

class S3Server {
 public:
  // Starts the server with one bucket `bucket` and waits until it listens. Null, with the reason in
  // `failure`, when it cannot be started.
  static std::unique_ptr<S3Server> start(const std::string& bucket, std::string& failure);
  ~S3Server();
  S3Server(const S3Server&) = delete;
  S3Server& operator=(const S3Server&) = delete;

  std::string endpoint() const;  // "http://127.0.0.1:<port>"
  const std::string& directory() const { return directory_; }
  static constexpr const char* kAccessKey = "S3RVER";
  static constexpr const char* kSecretKey = "S3RVER";

 private:
  S3Server() = default;
  std::unique_ptr<test_process::ChildProcess> server_;
  int port_ = 0;
  std::string directory_;
};

}  // namespace test_s3
