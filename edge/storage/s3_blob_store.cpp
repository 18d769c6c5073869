#include "edge/storage/s3_blob_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <system_error>

namespace edge::storage {
namespace {

namespace fs = std::filesystem;

// Every failure of the service is a storage failure to the products; the message says which.
core::Error as_storage_error(const core::Error& e) {
  if (e.code == "not_found") return e;
  return core::make_error("storage_error", e.message);
}

// Makes `path`'s folder, and renames `from` onto `path` (atomically, within one file system) and syncs the
// folder so the name survives a crash.
core::Status move_into(const std::string& from, const std::string& path) {
  std::error_code ec;
  const fs::path folder = fs::path(path).parent_path();
  fs::create_directories(folder, ec);
  if (ec) return core::make_error("storage_error", "cannot create " + folder.string() + ": " + ec.message());
  fs::rename(from, path, ec);
  if (ec) return core::make_error("storage_error", "cannot move a blob into " + path + ": " + ec.message());
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  return {};
}

}  // namespace

S3BlobStore::S3BlobStore(native::s3::S3Options options, std::string cache_dir)
    : client_(std::move(options)), cache_dir_(std::move(cache_dir)) {}

std::string S3BlobStore::cached_path(const std::string& key) const {
  return cache_dir_ + "/" + key;
}

core::Status S3BlobStore::put_file(const std::string& key, const std::string& path,
                                   std::string_view content_type) {
  if (auto put = client_.put_file(key, path, content_type); !put.ok()) return as_storage_error(put.error());
  // The service holds the durable copy now; the file becomes the local cache entry, sparing the CDN's
  // first request a download. Failing that, the file is simply dropped.
  if (!move_into(path, cached_path(key)).ok()) {
    std::error_code ignored;
    fs::remove(path, ignored);
  }
  return {};
}

core::Result<std::string> S3BlobStore::local_file(const std::string& key) {
  if (auto checked = native::s3::check_object_key(key); !checked.ok())
    return core::make_error("not_found", "no blob " + key);
  const std::string path = cached_path(key);
  std::error_code ec;
  if (fs::exists(path, ec)) return path;
  // Concurrent first reads each download into a name of their own; the last rename wins, and every one of
  // them holds the same bytes.
  static std::atomic<unsigned> counter{0};
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string temp = path + ".part-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  if (auto got = client_.get_to_file(key, temp); !got.ok()) {
    fs::remove(temp, ec);
    return as_storage_error(got.error());
  }
  if (auto moved = move_into(temp, path); !moved.ok()) {
    fs::remove(temp, ec);
    return moved.error();
  }
  return path;
}

std::optional<std::string> S3BlobStore::present_file(const std::string& key) {
  if (auto checked = native::s3::check_object_key(key); !checked.ok()) return std::nullopt;
  std::string path = cached_path(key);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return path;
}

core::Status S3BlobStore::remove(const std::string& key) {
  if (auto removed = client_.remove(key); !removed.ok()) return as_storage_error(removed.error());
  std::error_code ignored;
  fs::remove(cached_path(key), ignored);
  return {};
}

core::Status S3BlobStore::list(std::string_view prefix,
                               const std::function<void(const std::string& key, std::uint64_t size)>& each) {
  if (auto listed = client_.list(prefix, each); !listed.ok()) return as_storage_error(listed.error());
  return {};
}

core::Result<std::unique_ptr<BlobStore>> make_s3_blob_store(const Config& config) {
  const Config::Storage& s = config.storage;
  for (const auto& [value, name] :
       {std::pair{&s.s3_endpoint, "--storage-s3-endpoint"}, std::pair{&s.s3_bucket, "--storage-s3-bucket"},
        std::pair{&s.s3_access_key, "--storage-s3-access-key"},
        std::pair{&s.s3_secret_key, "STORAGE_S3_SECRET_KEY"}})
    if (value->empty())
      return core::make_error("invalid_config", std::string("the S3 storage backend needs ") + name);
  native::s3::S3Options options;
  options.endpoint = s.s3_endpoint;
  options.bucket = s.s3_bucket;
  options.region = s.s3_region;
  options.access_key = s.s3_access_key;
  options.secret_key = s.s3_secret_key;
  const std::string cache = s.blob_dir + "/s3-cache";
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) return core::make_error("storage_error", "cannot create " + cache + ": " + ec.message());
  return std::unique_ptr<BlobStore>(std::make_unique<S3BlobStore>(std::move(options), cache));
}

}  // namespace edge::storage
