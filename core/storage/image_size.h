#pragma once
// An image's width and height read from its header bytes, without decoding it, so that an image too large
// to decode safely (a "decompression bomb": a few kilobytes that expand to gigabytes of pixels) is refused
// at upload (docs/storage-api.md, "Images"). Pure.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/result.h"

namespace core::storage {

// How many leading bytes the caller should hand in: a JPEG's frame header may follow large EXIF and ICC
// segments.
inline constexpr std::size_t kImageHeaderBytes = 1 << 20;

struct ImageSize {
  std::uint64_t width = 0, height = 0;
  std::uint64_t pixels() const { return width * height; }
};

// The dimensions in `head` (the file's first bytes) for `content_type` (as resolve_content_type answers):
//   image/png   IHDR;  image/gif  the logical screen;  image/jpeg  the first SOFn frame header;
//   image/webp  the VP8, VP8L or VP8X header;  image/bmp  the info header;  image/tiff  the first IFD;
//   image/avif, image/heic  the largest `ispe` (image spatial extent) property found.
// Errors: `image_unreadable` (no valid header found in the bytes given, or the header is cut off),
// `not_an_image` (a content type this does not read).
Result<ImageSize> image_dimensions(std::string_view head, std::string_view content_type);

}  // namespace core::storage
