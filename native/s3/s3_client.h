#pragma once
// A client of an S3-compatible object service (AWS S3, MinIO, Cloudflare R2, ...) for the storage product's
// blobs (docs/storage-blobs.md): put a file, get an object into a file, delete, list by prefix. Requests
// are path-style (`<endpoint>/<bucket>/<key>`) and signed with AWS Signature Version 4 by libcurl
// (CURLOPT_AWS_SIGV4); the payload's SHA-256 is computed here and sent as `x-amz-content-sha256`, so the
// service checks the bytes it stored against the ones that were signed.
//
// Error codes: `not_found` (no such object), `s3_error` (the service refused: the message carries its
// status and its `<Code>`, never the credentials), `s3_unreachable` (connection, TLS, timeout),
// `storage_error` (a local file cannot be read or written).

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace native::s3 {

struct S3Options {
  // `http(s)://host[:port]`, without a trailing slash; plain http is for a service on loopback.
  std::string endpoint;
  std::string bucket;
  std::string region = "us-east-1";
  std::string access_key, secret_key;
  std::chrono::milliseconds connect_timeout{5'000};
  // Per request; large objects on slow links need more than the default.
  std::chrono::milliseconds total_timeout{300'000};
  // Keys per list page (`max-keys`); S3 caps it at 1000.
  int list_page_size = 1000;
};

// Object keys: 1-1024 bytes of ASCII letters, digits and `-_./` (the storage product's blob keys), not
// starting with `/`. Other keys are refused with `invalid_key` before any request.
core::Status check_object_key(std::string_view key);

class S3Client {
 public:
  explicit S3Client(S3Options options);

  // Uploads the file at `path` as `key` (replacing any object of that key) in one PUT.
  core::Status put_file(std::string_view key, const std::string& path, std::string_view content_type) const;

  // Downloads `key` into `dest_path` (created or truncated). On any failure `dest_path` may hold part of
  // the object: callers write to a temporary name and rename on success.
  core::Status get_to_file(std::string_view key, const std::string& dest_path) const;

  // Removes `key`; a missing object is no error (S3 answers 204 either way).
  core::Status remove(std::string_view key) const;

  // Calls `each` with every key under `prefix` and its size, in the service's (lexicographic) order,
  // page after page (S3Options::list_page_size keys each).
  core::Status list(std::string_view prefix,
                    const std::function<void(const std::string& key, std::uint64_t size)>& each) const;

 private:
  S3Options options_;
};

}  // namespace native::s3
