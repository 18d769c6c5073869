#include "edge/cdn/variant_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <system_error>
#include <vector>

#include "core/ascii.h"
#include "edge/storage/variant_folder.h"
#include "native/image/image.h"

namespace edge::cdn {

namespace {

using core::cdn::AcceptClass;
using core::cdn::ImageFormat;

bool is_folder_name(std::string_view media_id) {
  if (media_id.empty() || media_id.size() > 128) return false;
  for (char c : media_id) {
    if (!core::is_ascii_alnum(c) && c != '-' && c != '_') return false;
  }
  return true;
}

// The key of a variant's single flight: (item, quality, class), whatever format the maker picks.
std::string flight_key(std::string_view media_id, const core::cdn::Quality& quality,
                       AcceptClass accept_class) {
  std::string key(media_id);
  key += '/';
  key += quality.name;
  key += '.';
  key += core::cdn::class_name(accept_class);
  return key;
}

// The file at `path` opened for reading, or null when there is none.
std::shared_ptr<OpenFile> open_existing(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  return std::make_shared<OpenFile>(fd);
}

bool fsync_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// A name no other maker uses: hidden (leading dot), so it never collides with a variant name.
std::string temporary_name(const std::string& folder, std::string_view file_name) {
  static std::atomic<std::uint64_t> counter{0};
  return folder + "/." + std::string(file_name) + "." + std::to_string(::getpid()) + "." +
         std::to_string(counter.fetch_add(1)) + ".tmp";
}

}  // namespace

VariantMaker libvips_variant_maker(std::uint64_t max_pixels) {
  return [max_pixels](const std::string& source, const std::string& dest, const core::cdn::Quality& quality,
                      AcceptClass accept_class) -> core::Result<ImageFormat> {
    core::Result<native::image::ImageInfo> info = native::image::probe(source);
    if (!info) return info.error();
    const ImageFormat format = core::cdn::output_format(accept_class, info->format, info->has_alpha);
    native::image::VariantSpec spec;
    spec.max_width = quality.max_width;
    spec.quality = core::cdn::encoder_quality(quality, format);
    spec.format = format;
    spec.max_pixels = max_pixels;
    core::Result<native::image::ImageInfo> made = native::image::make_variant(source, dest, spec);
    if (!made) return made.error();
    return format;
  };
}

VariantCache::VariantCache(const Config& config)
    : VariantCache(config, libvips_variant_maker(config.storage.max_image_pixels)) {}

VariantCache::VariantCache(const Config& config, VariantMaker maker)
    : config_(config), maker_(std::move(maker)) {}

std::optional<Variant> VariantCache::find(std::string_view media_id, const core::cdn::Quality& quality,
                                          AcceptClass accept_class) const {
  if (!is_folder_name(media_id)) return std::nullopt;
  const std::string folder = storage::variant_folder(config_, media_id);
  for (ImageFormat format : core::cdn::class_formats(accept_class)) {
    std::string path = folder + "/" + core::cdn::variant_file_name(quality, format);
    if (auto opened = open_existing(path)) return Variant{std::move(path), format, std::move(opened)};
  }
  return std::nullopt;
}

core::Result<Variant> VariantCache::get(std::string_view media_id, const SourceFile& source,
                                        const core::cdn::Quality& quality, AcceptClass accept_class) {
  if (!is_folder_name(media_id)) return core::make_error("not_found", "No such media");
  // The common case, a hit, takes no lock.
  if (auto hit = find(media_id, quality, accept_class)) return *hit;

  const std::string key = flight_key(media_id, quality, accept_class);
  std::shared_ptr<Flight> flight;
  {
    std::unique_lock lock(mutex_);
    auto it = flights_.find(key);
    if (it != flights_.end()) {
      flight = it->second;
      ++flight->waiters;
      done_.wait(lock, [&] { return flight->done; });
      --flight->waiters;
      return *flight->result;
    }
    // A maker may have renamed its file into place (and left) since the check above.
    if (auto hit = find(media_id, quality, accept_class)) return *hit;
    flight = std::make_shared<Flight>();
    flights_.emplace(key, flight);
  }

  core::Result<Variant> result =
      make(storage::variant_folder(config_, media_id), source, quality, accept_class);
  {
    std::lock_guard lock(mutex_);
    flight->result = result;
    flight->done = true;
    flights_.erase(key);
  }
  done_.notify_all();
  return result;
}

std::size_t VariantCache::waiting(std::string_view media_id, const core::cdn::Quality& quality,
                                  AcceptClass accept_class) const {
  std::lock_guard lock(mutex_);
  auto it = flights_.find(flight_key(media_id, quality, accept_class));
  return it == flights_.end() ? 0 : it->second->waiters;
}

core::Result<Variant> VariantCache::make(const std::string& folder, const SourceFile& source,
                                         const core::cdn::Quality& quality, AcceptClass accept_class) {
  core::Result<std::string> source_path = source();
  if (!source_path) return source_path.error();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return core::make_error("storage_error", "Cannot create the variant folder: " + ec.message());

  const std::string temporary = temporary_name(
      folder, std::string(quality.name) + "." + std::string(core::cdn::class_name(accept_class)));
  core::Result<ImageFormat> format = maker_(*source_path, temporary, quality, accept_class);
  if (!format) {
    std::filesystem::remove(temporary, ec);
    return format.error();
  }
  const std::vector<ImageFormat> allowed = core::cdn::class_formats(accept_class);
  if (std::find(allowed.begin(), allowed.end(), *format) == allowed.end()) {  // find() would never see it
    std::filesystem::remove(temporary, ec);
    return core::make_error("image_error", "The variant was made in a format its class cannot have");
  }
  const std::string path = folder + "/" + core::cdn::variant_file_name(quality, *format);
  // Durable before it has its name: a crash never leaves a named, truncated variant that would be served
  // forever. (A lost rename only means the variant is made again.)
  if (!fsync_file(temporary)) {
    std::filesystem::remove(temporary, ec);
    return core::make_error("storage_error", "Cannot write the variant file");
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return core::make_error("storage_error", "Cannot write the variant file");
  }
  return Variant{path, *format, nullptr};
}

}  // namespace edge::cdn
