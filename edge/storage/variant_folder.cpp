#include "edge/storage/variant_folder.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <system_error>

namespace edge::storage {

std::string variant_folder(const Config& config, std::string_view media_id) {
  return config.storage.variant_dir + "/" + std::string(media_id);
}

void drop_variants(const Config& config, std::string_view media_id) {
  std::error_code ec;
  std::filesystem::remove_all(variant_folder(config, media_id), ec);
  if (ec) spdlog::warn("dropping the CDN variants of media {} failed: {}", media_id, ec.message());
}

}  // namespace edge::storage
