#include "edge/cdn/variant_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <filesystem>
#include <system_error>

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

// The format of an existing variant file: known from the class for avif and webp, read from the first
// bytes for legacy (JPEG or PNG, depending on the source). nullopt: no file (or not one we wrote).
std::optional<ImageFormat> existing_format(const std::string& path, AcceptClass accept_class) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::array<char, 64> head{};
  ssize_t got = ::read(fd, head.data(), head.size());
  ::close(fd);
  if (got <= 0) return std::nullopt;
  ImageFormat format = core::cdn::sniff_format(std::string_view(head.data(), static_cast<std::size_t>(got)));
  if (format == ImageFormat::unknown) return std::nullopt;
  if (accept_class == AcceptClass::avif && format != ImageFormat::avif) return std::nullopt;
  if (accept_class == AcceptClass::webp && format != ImageFormat::webp) return std::nullopt;
  return format;
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

core::Result<Variant> VariantCache::get(std::string_view media_id, const SourceFile& source,
                                        const core::cdn::Quality& quality, AcceptClass accept_class) {
  if (!is_folder_name(media_id)) return core::make_error("not_found", "No such media");
  const std::string folder = storage::variant_folder(config_, media_id);
  const std::string path = folder + "/" + core::cdn::variant_file_name(quality, accept_class);

  // The common case, a hit, takes no lock.
  if (auto format = existing_format(path, accept_class)) return Variant{path, *format};

  std::shared_ptr<Flight> flight;
  {
    std::unique_lock lock(mutex_);
    auto it = flights_.find(path);
    if (it != flights_.end()) {
      flight = it->second;
      ++flight->waiters;
      done_.wait(lock, [&] { return flight->done; });
      --flight->waiters;
      return *flight->result;
    }
    // A maker may have renamed its file into place (and left) since the check above.
    if (auto format = existing_format(path, accept_class)) return Variant{path, *format};
    flight = std::make_shared<Flight>();
    flights_.emplace(path, flight);
  }

  core::Result<Variant> result = make(folder, path, source, quality, accept_class);
  {
    std::lock_guard lock(mutex_);
    flight->result = result;
    flight->done = true;
    flights_.erase(path);
  }
  done_.notify_all();
  return result;
}

std::size_t VariantCache::waiting(const std::string& path) const {
  std::lock_guard lock(mutex_);
  auto it = flights_.find(path);
  return it == flights_.end() ? 0 : it->second->waiters;
}

core::Result<Variant> VariantCache::make(const std::string& folder, const std::string& path,
                                         const SourceFile& source, const core::cdn::Quality& quality,
                                         AcceptClass accept_class) {
  core::Result<std::string> source_path = source();
  if (!source_path) return source_path.error();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return core::make_error("storage_error", "Cannot create the variant folder: " + ec.message());

  const std::string temporary = temporary_name(folder, std::filesystem::path(path).filename().string());
  core::Result<ImageFormat> format = maker_(*source_path, temporary, quality, accept_class);
  if (!format) {
    std::filesystem::remove(temporary, ec);
    return format.error();
  }
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
  return Variant{path, *format};
}

}  // namespace edge::cdn
