#pragma once
// The CDN's variant cache (docs/storage-cdn.md): one file per (media item, quality, Accept class) in the
// item's variant folder (edge/storage/variant_folder.h), named by its quality and format
// (core::cdn::variant_file_name), made on the first request and served as a file ever after. Files are
// written under a temporary name in the same folder, fsync'd and renamed, so a reader sees a complete variant
// or none; concurrent first requests for one variant wait for a single maker (in-process single flight) and
// all get its file.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/cdn/accept.h"
#include "core/cdn/image_format.h"
#include "core/cdn/quality.h"
#include "core/result.h"
#include "edge/config.h"
#include "edge/http/message.h"

namespace edge::cdn {

struct Variant {
  std::string path;
  core::cdn::ImageFormat format = core::cdn::ImageFormat::unknown;
  // The file, open, when a lookup found it (find(), and get() on a hit): the response sends it as is.
  std::shared_ptr<OpenFile> opened;
};

// The media item's bytes as a local file; called only when a variant has to be made (with the S3 backend
// this fetches the original, edge/storage/blob_store.h local_file()).
using SourceFile = std::function<core::Result<std::string>()>;

// Makes one variant of `source` into `dest` and says which format it wrote.
using VariantMaker = std::function<core::Result<core::cdn::ImageFormat>(
    const std::string& source, const std::string& dest, const core::cdn::Quality& quality,
    core::cdn::AcceptClass accept_class)>;

// The real maker: the source's header decides the legacy format (core::cdn::output_format), libvips makes
// the variant (native/image/image.h) with the quality's width and encoder setting. Sources with more than
// `max_pixels` pixels are refused (`image_too_large`).
VariantMaker libvips_variant_maker(std::uint64_t max_pixels);

// One per process (single flight is per instance). `config` must outlive it.
class VariantCache {
 public:
  // With libvips_variant_maker(config.storage.max_image_pixels).
  explicit VariantCache(const Config& config);
  VariantCache(const Config& config, VariantMaker maker);
  VariantCache(const VariantCache&) = delete;
  VariantCache& operator=(const VariantCache&) = delete;

  // The variant of `media_id` for (quality, class) when it exists, opened; never makes one. Cheap enough
  // for an I/O thread: an open(2) per name the class can have (one, two for legacy), no lock, no read.
  std::optional<Variant> find(std::string_view media_id, const core::cdn::Quality& quality,
                              core::cdn::AcceptClass accept_class) const;

  // The variant of `media_id` for (quality, class), made first if it does not exist yet. Errors:
  // `not_found` (a media id that cannot name a folder: empty, longer than 128 bytes, or other than ASCII
  // letters, digits, `-` and `_`; or the source's own not_found), the maker's errors (`image_too_large`,
  // `unreadable_image`, `unsupported_image`, `image_error`) and `storage_error` (the folder or file could
  // not be written). A failure is not remembered: the next request tries again.
  core::Result<Variant> get(std::string_view media_id, const SourceFile& source,
                            const core::cdn::Quality& quality, core::cdn::AcceptClass accept_class);

  // How many callers are waiting for the maker of this variant (for tests).
  std::size_t waiting(std::string_view media_id, const core::cdn::Quality& quality,
                      core::cdn::AcceptClass accept_class) const;

 private:
  struct Flight {
    bool done = false;
    std::size_t waiters = 0;
    std::optional<core::Result<Variant>> result;
  };

  core::Result<Variant> make(const std::string& folder, const SourceFile& source,
                             const core::cdn::Quality& quality, core::cdn::AcceptClass accept_class);

  const Config& config_;
  VariantMaker maker_;
  mutable std::mutex mutex_;
  std::condition_variable done_;
  // Variants being made, by flight_key().
  std::map<std::string, std::shared_ptr<Flight>, std::less<>> flights_;
};

}  // namespace edge::cdn
