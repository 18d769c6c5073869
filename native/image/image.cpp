#include "native/image/image.h"

#include <vips/vips.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>

namespace native::image {

namespace {

struct Unref {
  void operator()(VipsImage* image) const { g_object_unref(image); }
};
using ImagePtr = std::unique_ptr<VipsImage, Unref>;

void drop_warning(const gchar*, GLogLevelFlags, const gchar*, gpointer) {}

bool g_started = false;

// libvips' error buffer is process-wide: take its text and clear it.
std::string take_vips_error() {
  std::string text = vips_error_buffer();
  vips_error_clear();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

core::Error vips_failure(std::string code, std::string_view what) {
  std::string detail = take_vips_error();
  std::string message(what);
  if (!detail.empty()) message += ": " + detail;
  return core::make_error(std::move(code), std::move(message));
}

// The allowed loaders, by class name (vips_foreign_find_load).
ImageFormat format_of_loader(std::string_view loader) {
  if (loader == "VipsForeignLoadJpegFile") return ImageFormat::jpeg;
  if (loader == "VipsForeignLoadPngFile") return ImageFormat::png;
  if (loader == "VipsForeignLoadWebpFile") return ImageFormat::webp;
  if (loader == "VipsForeignLoadNsgifFile") return ImageFormat::gif;
  if (loader == "VipsForeignLoadTiffFile") return ImageFormat::tiff;
  if (loader == "VipsForeignLoadHeifFile") return ImageFormat::heic;  // refined from the header below
  return ImageFormat::unknown;
}

// Metadata that may identify a person, a place or a device: every EXIF field (the GPS IFD included) and
// the raw EXIF block, XMP, IPTC, Photoshop resources, PNG text chunks, GIF comments and TIFF descriptions.
// The ICC profile (`icc-profile-data`) and the pixel layout fields stay.
bool is_private_metadata(std::string_view name) {
  for (std::string_view prefix : {"exif-", "xmp-", "iptc-", "photoshop-", "png-comment-"}) {
    if (name.starts_with(prefix)) return true;
  }
  return name == "gif-comment" || name == "image-description" || name == "orientation";
}

void strip_private_metadata(VipsImage* image) {
  gchar** fields = vips_image_get_fields(image);
  for (gchar** field = fields; *field != nullptr; ++field) {
    if (is_private_metadata(*field)) vips_image_remove(image, *field);
  }
  g_strfreev(fields);
}

// Saves with `strip` off: libvips 8.14's strip would drop the ICC profile too (and webpsave given a
// `profile` with strip on still writes the EXIF block), so the private fields are removed beforehand
// instead. The JPEG, WebP and AVIF savers then write a fresh minimal EXIF block made from the output
// alone (orientation 1, resolution, dimensions); nothing of the source's EXIF is in it.
int save(VipsImage* image, const std::string& dest, const VariantSpec& spec) {
  const char* path = dest.c_str();
  switch (spec.format) {
    case ImageFormat::jpeg:
      return vips_jpegsave(image, path, "Q", spec.quality, "optimize_coding", TRUE, "strip", FALSE, nullptr);
    case ImageFormat::png:
      return vips_pngsave(image, path, "compression", 6, "strip", FALSE, nullptr);
    case ImageFormat::webp:
      return vips_webpsave(image, path, "Q", spec.quality, "effort", 4, "strip", FALSE, nullptr);
    case ImageFormat::avif:
      // effort 3 of 9: AVIF encoding is the slow step of a variant. On a 960 px medium variant (AMD EPYC,
      // docs/storage-cdn.md) effort 3 took about the time of effort 2 for a 30 % smaller file, and the
      // default 4 took 2.7 times as long for a further 17 %.
      return vips_heifsave(image, path, "Q", spec.quality, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
                           "effort", 3, "bitdepth", 8, "strip", FALSE, nullptr);
    default:
      vips_error("make_variant", "cannot encode %s",
                 std::string(core::cdn::format_name(spec.format)).c_str());
      return -1;
  }
}

}  // namespace

bool init(const Settings& settings) {
  static std::once_flag once;
  std::call_once(once, [&] {
    if (VIPS_INIT("platform") != 0) {
      vips_error_clear();
      return;
    }
    int threads = settings.threads;
    if (threads <= 0) threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
    vips_concurrency_set(threads);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_block_untrusted_set(TRUE);
    g_log_set_handler("VIPS", static_cast<GLogLevelFlags>(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE),
                      drop_warning, nullptr);
    g_started = true;
  });
  return g_started;
}

core::Result<ImageInfo> probe(const std::string& path) {
  if (!init()) return core::make_error("image_error", "libvips could not start");
  const char* loader = vips_foreign_find_load(path.c_str());
  if (loader == nullptr) return vips_failure("unreadable_image", "Not a readable image");
  ImageInfo info;
  info.format = format_of_loader(loader);
  if (info.format == ImageFormat::unknown) {
    return core::make_error("unsupported_image", std::string("Unsupported image format (") + loader + ")");
  }
  // Opening reads the header only; pixels are decoded when an operation asks for them.
  ImagePtr image(vips_image_new_from_file(path.c_str(), "access", VIPS_ACCESS_SEQUENTIAL, nullptr));
  if (!image) return vips_failure("unreadable_image", "Unreadable image header");
  info.width = vips_image_get_width(image.get());
  info.height = vips_image_get_height(image.get());
  info.has_alpha = vips_image_hasalpha(image.get());
  info.orientation = vips_image_get_orientation(image.get());
  info.pages = std::max(1, vips_image_get_n_pages(image.get()));
  if (info.format == ImageFormat::heic) {
    const char* compression = nullptr;
    if (vips_image_get_typeof(image.get(), "heif-compression") &&
        vips_image_get_string(image.get(), "heif-compression", &compression) == 0 && compression != nullptr &&
        std::strcmp(compression, "av1") == 0) {
      info.format = ImageFormat::avif;
    }
  }
  return info;
}

core::Result<ImageInfo> make_variant(const std::string& source, const std::string& dest,
                                     const VariantSpec& spec) {
  core::Result<ImageInfo> source_info = probe(source);
  if (!source_info) return source_info.error();
  const std::uint64_t pixels =
      static_cast<std::uint64_t>(source_info->width) * static_cast<std::uint64_t>(source_info->height);
  if (pixels > spec.max_pixels) {
    return core::make_error("image_too_large", "The image has " + std::to_string(pixels) +
                                                   " pixels; the limit is " +
                                                   std::to_string(spec.max_pixels));
  }
  // Shrink on load to the bounded width (the orientation is applied first, so the bound is on the
  // displayed width); height unbounded; never upscaled. vips_thumbnail keeps the embedded ICC profile.
  const int width = spec.max_width > 0 ? spec.max_width : VIPS_MAX_COORD;
  VipsImage* shrunk = nullptr;
  if (vips_thumbnail(source.c_str(), &shrunk, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
                     nullptr) != 0) {
    return vips_failure("image_error", "Decoding the image failed");
  }
  ImagePtr shrunk_owner(shrunk);
  // A private copy of the header before editing its metadata.
  VipsImage* copy = nullptr;
  if (vips_copy(shrunk, &copy, nullptr) != 0) return vips_failure("image_error", "Copying the image failed");
  ImagePtr image(copy);
  strip_private_metadata(image.get());
  if (save(image.get(), dest, spec) != 0) return vips_failure("image_error", "Encoding the variant failed");
  ImageInfo out;
  out.format = spec.format;
  out.width = vips_image_get_width(image.get());
  out.height = vips_image_get_height(image.get());
  out.has_alpha = vips_image_hasalpha(image.get());
  return out;
}

}  // namespace native::image
