#include "edge/storage/local_blob_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/ascii.h"
#include "edge/storage/s3_blob_store.h"

namespace edge::storage {
namespace fs = std::filesystem;

namespace {

core::Error failure(std::string what) {
  return core::make_error("storage_error", what + ": " + std::strerror(errno));
}

// Makes a folder's entries (a rename, a new file or sub-folder) durable.
core::Status fsync_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return failure("opening blob folder " + dir);
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return failure("flushing blob folder " + dir);
  return {};
}

// Creates `dir` and its missing parents below `root`, each made durable in its parent.
core::Status make_dirs(const std::string& root, const std::string& dir) {
  if (dir.size() <= root.size()) return {};
  std::size_t slash = dir.rfind('/');
  CORE_TRY(make_dirs(root, dir.substr(0, slash)));
  if (::mkdir(dir.c_str(), 0700) == 0) return fsync_dir(dir.substr(0, slash));
  if (errno == EEXIST) return {};
  return failure("creating blob folder " + dir);
}

// For a temporary file on another filesystem: copies it next to `target`, fsyncs the copy and renames it.
core::Status copy_into_place(const std::string& from, const std::string& target) {
  const std::string part = target + ".part";
  std::error_code ec;
  fs::copy_file(from, part, fs::copy_options::overwrite_existing, ec);
  if (ec) return core::make_error("storage_error", "copying an upload into the blob folder: " + ec.message());
  int fd = ::open(part.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    if (fd >= 0) ::close(fd);
    ::unlink(part.c_str());
    return failure("flushing a blob copy");
  }
  ::close(fd);
  if (::rename(part.c_str(), target.c_str()) != 0) {
    ::unlink(part.c_str());
    return failure("renaming a blob copy into place");
  }
  ::unlink(from.c_str());
  return {};
}

}  // namespace

bool valid_blob_key(std::string_view key) {
  if (key.empty() || key.size() > 400 || key.front() == '/' || key.back() == '/') return false;
  char prev = '/';
  for (char c : key) {
    if (!core::is_ascii_alnum(c) && c != '-' && c != '_' && c != '/') return false;
    if (c == '/' && prev == '/') return false;
    prev = c;
  }
  return true;
}

core::Status LocalBlobStore::put_file(const std::string& key, const std::string& path, std::string_view) {
  if (!valid_blob_key(key)) return core::make_error("storage_error", "invalid blob key");
  const std::string target = root_ + "/" + key;
  const std::string dir = target.substr(0, target.rfind('/'));
  CORE_TRY(make_dirs(root_, dir));
  if (::rename(path.c_str(), target.c_str()) != 0) {
    if (errno != EXDEV) return failure("renaming an upload into the blob folder");
    CORE_TRY(copy_into_place(path, target));
  }
  return fsync_dir(dir);
}

core::Result<std::string> LocalBlobStore::local_file(const std::string& key) {
  if (!valid_blob_key(key)) return core::make_error("not_found", "no such blob");
  std::string path = root_ + "/" + key;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return core::make_error("not_found", "no such blob");
    return failure("reading blob " + key);
  }
  return path;
}

std::optional<std::string> LocalBlobStore::present_file(const std::string& key) {
  core::Result<std::string> path = local_file(key);
  if (!path) return std::nullopt;
  return *path;
}

core::Status LocalBlobStore::remove(const std::string& key) {
  if (!valid_blob_key(key)) return {};
  const std::string path = root_ + "/" + key;
  if (::unlink(path.c_str()) != 0 && errno != ENOENT && errno != ENOTDIR)
    return failure("removing blob " + key);
  return {};
}

core::Status LocalBlobStore::list(
    std::string_view prefix, const std::function<void(const std::string& key, std::uint64_t size)>& each) {
  std::error_code ec;
  if (!fs::exists(root_, ec)) return {};
  for (auto it = fs::recursive_directory_iterator(root_, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    if (it->path().extension() == ".part") {  // a copy cut off by a crash (copy_into_place)
      fs::remove(it->path(), ec);
      continue;
    }
    std::string key = fs::relative(it->path(), root_, ec).generic_string();
    if (ec) break;
    if (key.rfind(prefix, 0) != 0) continue;
    each(key, it->file_size(ec));
  }
  if (ec) return core::make_error("storage_error", "listing the blob folder: " + ec.message());
  return {};
}

core::Result<std::unique_ptr<BlobStore>> make_blob_store(const Config& config) {
  if (config.storage.backend == "s3") return make_s3_blob_store(config);
  if (config.storage.backend != "local")
    return core::make_error("invalid_config",
                            "unknown storage backend '" + config.storage.backend + "' (local or s3)");
  std::error_code ec;
  fs::create_directories(config.storage.blob_dir, ec);
  if (ec)
    return core::make_error("storage_error",
                            "cannot create the blob folder " + config.storage.blob_dir + ": " + ec.message());
  return std::unique_ptr<BlobStore>(std::make_unique<LocalBlobStore>(config.storage.blob_dir));
}

}  // namespace edge::storage
