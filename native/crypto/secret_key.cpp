#include "native/crypto/secret_key.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/bytes.h"

namespace native {
namespace {

core::Result<core::SecretKey> from_hex(std::string_view hex, std::string_view where) {
  auto bytes = core::hex_decode(hex);
  if (!bytes || bytes->size() != 32)
    return core::make_error("invalid_secret_key",
                            std::string(where) + " must hold 64 hex characters (32 bytes)");
  core::SecretKey key;
  std::copy(bytes->begin(), bytes->end(), key.begin());
  return key;
}

}  // namespace

core::Result<core::SecretKey> load_secret_key(const std::string& configured_hex, const std::string& data_dir,
                                              core::RandomSource& random) {
  if (!configured_hex.empty()) return from_hex(configured_hex, "PLATFORM_SECRET_KEY");
  std::string path = data_dir + "/secret.key";
  if (std::ifstream in(path); in) {
    std::string hex;
    in >> hex;
    return from_hex(hex, path);
  }
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  core::SecretKey key;
  random.fill(key);
  std::string hex = core::hex_encode(key) + "\n";
  // O_EXCL: two processes starting at once must not each write a different key.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    if (errno == EEXIST) return load_secret_key(configured_hex, data_dir, random);
    return core::make_error("storage_error", "cannot create " + path);
  }
  bool ok = ::write(fd, hex.data(), hex.size()) == static_cast<ssize_t>(hex.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) return core::make_error("storage_error", "cannot write " + path);
  return key;
}

}  // namespace native
