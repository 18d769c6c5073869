#pragma once
// Where a streamed request body goes. A route that takes large bodies (uploads) names a sink in its
// RouteOptions; the transport then hands each piece of the body to the sink as it arrives, on an I/O thread,
// instead of collecting it in Request::body, so a 100 MB upload never sits whole in memory.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"

namespace edge {

class BodySink {
 public:
  virtual ~BodySink() = default;

  // Takes the next piece of the body. Called on an I/O thread: must not block for long (writing to a local
  // file is fine, a network round trip is not). An error stops the upload: the transport answers 500 and
  // closes the connection.
  virtual core::Status write(std::string_view bytes) = 0;
  // Called once, after the last piece, before the handler runs.
  virtual core::Status finish() = 0;
  // Bytes taken so far.
  virtual std::uint64_t size() const = 0;
};

// A body written to a new temporary file in a folder. The file is removed when the sink goes, unless the
// handler moved it elsewhere first (rename it to keep it, then call release()).
class FileSink : public BodySink {
 public:
  // Creates `<folder>/upload-XXXXXX` with mode 0600 (the folder is created when missing).
  // Errors: `storage_error` when the folder or file cannot be created.
  static core::Result<std::unique_ptr<FileSink>> create(const std::string& folder);
  ~FileSink() override;

  core::Status write(std::string_view bytes) override;
  // Flushes the file to disk (fsync), so a handler that renames it into place keeps a durable copy.
  core::Status finish() override;
  std::uint64_t size() const override { return size_; }

  const std::string& path() const { return path_; }
  // The handler took the file (renamed it): do not remove it.
  void release() { released_ = true; }

 private:
  FileSink(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  bool released_ = false;
};

}  // namespace edge
