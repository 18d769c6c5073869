#pragma once
// Images for the CDN (docs/storage-cdn.md), over libvips: reading an image's header without decoding its
// pixels, and making one variant of it (shrunk on load, EXIF orientation applied, metadata stripped but the
// colour profile kept, encoded as JPEG, PNG, WebP or AVIF).
//
// Thread-safe: libvips is initialised once (init()) and every call works on its own images.

#include <cstdint>
#include <string>

#include "core/cdn/image_format.h"
#include "core/result.h"

namespace native::image {

using core::cdn::ImageFormat;

struct Settings {
  // libvips worker threads per image operation; 0: the hardware's cores, at most 4.
  int threads = 0;
};

// Initialises libvips once per process; later calls (and calls racing with the first) do nothing. The
// operation cache is turned off (each request works on a different file, so it would only hold memory and
// file descriptors), loaders libvips marks untrusted (ImageMagick, MATLAB, ...) are blocked, and libvips'
// warnings (for example AVIF's "ignoring nclx profile") are dropped. probe() and make_variant() call it
// with the default settings if nobody did before. False if libvips could not start.
bool init(const Settings& settings = {});

// What the header says. `width` and `height` are as stored, before `orientation` (EXIF 1..8) is applied;
// a multi-page image (animated GIF or WebP) reports its first page.
struct ImageInfo {
  ImageFormat format = ImageFormat::unknown;
  int width = 0;
  int height = 0;
  bool has_alpha = false;
  int orientation = 1;
  int pages = 1;
};

// Reads the header of the image at `path`; never decodes the pixels. Accepted formats: JPEG, PNG, WebP,
// GIF, AVIF, HEIC and TIFF. Errors: `unreadable_image` (missing file, not an image, corrupt header),
// `unsupported_image` (an image of another format: SVG, PDF, JPEG 2000, ...).
core::Result<ImageInfo> probe(const std::string& path);

struct VariantSpec {
  // Bound on the displayed width (after orientation); never upscaled. 0: full size.
  int max_width = 0;
  // Encoder setting, 1..100 (ignored by PNG, which is lossless).
  int quality = 80;
  // jpeg, png, webp or avif.
  ImageFormat format = ImageFormat::jpeg;
  // Sources with more pixels (width × height of one page) are refused before anything is decoded.
  std::uint64_t max_pixels = 100ULL * 1000 * 1000;
};

// Writes a variant of `source` to `dest` (created or replaced; the caller picks a temporary name and
// renames it). The image is shrunk while loading (vips_thumbnail) so that its displayed width is at most
// spec.max_width, rotated/flipped as its EXIF orientation says, and stripped of EXIF (GPS included), XMP,
// IPTC, Photoshop and comment metadata while its ICC colour profile is kept. Animated sources give their
// first frame. Returns the variant's format and dimensions (orientation 1). Errors: those of probe(),
// `image_too_large` (over spec.max_pixels), `image_error` (decoding or encoding failed; `dest` may be left
// partly written).
core::Result<ImageInfo> make_variant(const std::string& source, const std::string& dest,
                                     const VariantSpec& spec);

}  // namespace native::image
