#include "native/imap/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>

namespace native::imap {
namespace {

core::Error storage_error(std::string_view step, const std::string& path, int err) {
  return core::make_error("storage_error",
                          "cannot " + std::string(step) + " " + path + ": " + std::strerror(err));
}

// Closes the descriptor and removes the temporary file unless the rename happened.
class TempFile {
 public:
  TempFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!renamed_) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  bool close() {
    int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }
  void renamed() { renamed_ = true; }

 private:
  std::string path_;
  int fd_;
  bool renamed_ = false;
};

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

core::Status replace_file(const std::string& path, std::string_view content, mode_t mode) {
  auto slash = path.rfind('/');
  std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat folder_stat {};
  if (::stat(folder.c_str(), &folder_stat) != 0) return storage_error("stat", folder, errno);

  static std::atomic<unsigned> counter{0};
  std::string temp_path = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return storage_error("create", temp_path, errno);
  TempFile temp(temp_path, fd);

  if (::fchown(temp.fd(), static_cast<uid_t>(-1), folder_stat.st_gid) != 0)
    return storage_error("set the group of", temp_path, errno);
  if (::fchmod(temp.fd(), mode) != 0) return storage_error("set the mode of", temp_path, errno);
  if (!write_all(temp.fd(), content)) return storage_error("write", temp_path, errno);

  // The mtime must move on by at least a second, whatever the clock and the old file say.
  std::time_t mtime = std::time(nullptr);
  struct stat old {};
  if (::stat(path.c_str(), &old) == 0 && old.st_mtime >= mtime) mtime = old.st_mtime + 1;
  timespec times[2] = {{0, UTIME_OMIT}, {mtime, 0}};
  if (::futimens(temp.fd(), times) != 0) return storage_error("set the time of", temp_path, errno);

  if (::fsync(temp.fd()) != 0) return storage_error("fsync", temp_path, errno);
  if (!temp.close()) return storage_error("close", temp_path, errno);
  if (::rename(temp_path.c_str(), path.c_str()) != 0) return storage_error("rename onto", path, errno);
  temp.renamed();

  int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return storage_error("open", folder, errno);
  bool synced = ::fsync(dir) == 0;
  int err = errno;
  ::close(dir);
  if (!synced) return storage_error("fsync", folder, err);
  return {};
}

}  // namespace native::imap
