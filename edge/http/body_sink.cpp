#include "edge/http/body_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace edge {

core::Result<std::unique_ptr<FileSink>> FileSink::create(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  std::string path = folder + "/upload-XXXXXX";
  int fd = ::mkostemp(path.data(), O_CLOEXEC);  // mode 0600
  if (fd < 0)
    return core::make_error("storage_error",
                            "cannot create a temporary file in " + folder + ": " + std::strerror(errno));
  return std::unique_ptr<FileSink>(new FileSink(std::move(path), fd));
}

FileSink::~FileSink() {
  if (fd_ >= 0) ::close(fd_);
  if (!released_) ::unlink(path_.c_str());
}

core::Status FileSink::write(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return core::make_error("storage_error", std::string("writing an upload: ") + std::strerror(errno));
    bytes.remove_prefix(static_cast<std::size_t>(n));
    size_ += static_cast<std::uint64_t>(n);
  }
  return {};
}

core::Status FileSink::finish() {
  if (::fsync(fd_) != 0)
    return core::make_error("storage_error", std::string("flushing an upload: ") + std::strerror(errno));
  return {};
}

}  // namespace edge
