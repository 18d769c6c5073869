#include "core/storage/image_size.h"

#include <algorithm>

namespace core::storage {
namespace {

std::uint32_t u8(std::string_view s, std::size_t i) {
  return static_cast<std::uint8_t>(s[i]);
}
std::uint32_t be16(std::string_view s, std::size_t i) {
  return (u8(s, i) << 8) | u8(s, i + 1);
}
std::uint32_t be32(std::string_view s, std::size_t i) {
  return (be16(s, i) << 16) | be16(s, i + 2);
}
std::uint32_t le16(std::string_view s, std::size_t i) {
  return u8(s, i) | (u8(s, i + 1) << 8);
}
std::uint32_t le24(std::string_view s, std::size_t i) {
  return le16(s, i) | (u8(s, i + 2) << 16);
}
std::uint32_t le32(std::string_view s, std::size_t i) {
  return le16(s, i) | (le16(s, i + 2) << 16);
}

Error unreadable(std::string_view what) {
  return make_error("image_unreadable", "the " + std::string(what) + " header cannot be read");
}

Result<ImageSize> png(std::string_view h) {
  if (h.size() < 24 || h.substr(12, 4) != "IHDR") return unreadable("PNG");
  return ImageSize{be32(h, 16), be32(h, 20)};
}

Result<ImageSize> gif(std::string_view h) {
  if (h.size() < 10) return unreadable("GIF");
  return ImageSize{le16(h, 6), le16(h, 8)};
}

Result<ImageSize> jpeg(std::string_view h) {
  std::size_t i = 2;
  while (i + 4 <= h.size()) {
    if (u8(h, i) != 0xFF) return unreadable("JPEG");
    const std::uint32_t marker = u8(h, i + 1);
    if (marker == 0xFF) {  // fill byte
      ++i;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // no length
      i += 2;
      continue;
    }
    if (marker == 0xD9 || marker == 0xDA) return unreadable("JPEG");  // end or scan before any frame
    const std::uint32_t length = be16(h, i + 2);
    if (length < 2) return unreadable("JPEG");
    const bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof) {
      if (i + 9 > h.size() || length < 7) return unreadable("JPEG");
      return ImageSize{be16(h, i + 7), be16(h, i + 5)};
    }
    i += 2 + length;
  }
  return unreadable("JPEG");
}

Result<ImageSize> webp(std::string_view h) {
  if (h.size() < 30) return unreadable("WebP");
  std::string_view chunk = h.substr(12, 4);
  if (chunk == "VP8 ") {
    if (h.substr(23, 3) != "\x9D\x01\x2A") return unreadable("WebP");
    return ImageSize{le16(h, 26) & 0x3FFF, le16(h, 28) & 0x3FFF};
  }
  if (chunk == "VP8L") {
    if (u8(h, 20) != 0x2F) return unreadable("WebP");
    const std::uint32_t bits = le32(h, 21);
    return ImageSize{(bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1};
  }
  if (chunk == "VP8X") return ImageSize{le24(h, 24) + 1, le24(h, 27) + 1};
  return unreadable("WebP");
}

Result<ImageSize> bmp(std::string_view h) {
  if (h.size() < 26) return unreadable("BMP");
  const std::int32_t width = static_cast<std::int32_t>(le32(h, 18));
  const std::int32_t height = static_cast<std::int32_t>(le32(h, 22));  // negative: top-down rows
  auto magnitude = [](std::int32_t v) { return v < 0 ? -static_cast<std::int64_t>(v) : v; };
  return ImageSize{static_cast<std::uint64_t>(magnitude(width)),
                   static_cast<std::uint64_t>(magnitude(height))};
}

Result<ImageSize> tiff(std::string_view h) {
  if (h.size() < 8) return unreadable("TIFF");
  const bool little = h[0] == 'I';
  auto r16 = [&](std::size_t i) { return little ? le16(h, i) : be16(h, i); };
  auto r32 = [&](std::size_t i) { return little ? le32(h, i) : be32(h, i); };
  const std::size_t ifd = r32(4);
  if (ifd + 2 > h.size()) return unreadable("TIFF");
  const std::size_t count = r16(ifd);
  ImageSize size;
  for (std::size_t n = 0; n < count; ++n) {
    const std::size_t at = ifd + 2 + n * 12;
    if (at + 12 > h.size()) return unreadable("TIFF");
    const std::uint32_t tag = r16(at), type = r16(at + 2);
    if (tag != 256 && tag != 257) continue;
    const std::uint32_t value = type == 3 ? r16(at + 8) : type == 4 ? r32(at + 8) : 0;
    (tag == 256 ? size.width : size.height) = value;
  }
  if (size.width == 0 || size.height == 0) return unreadable("TIFF");
  return size;
}

// HEIF and AVIF: each image item's `ispe` property (ISO/IEC 23008-12 §6.5.3): version and flags (4 bytes),
// then width and height (32 bits each). A grid image names its full size in its own `ispe`.
Result<ImageSize> heif(std::string_view h) {
  ImageSize best;
  for (std::size_t at = h.find("ispe"); at != std::string_view::npos; at = h.find("ispe", at + 4)) {
    if (at + 16 > h.size()) break;
    ImageSize s{be32(h, at + 8), be32(h, at + 12)};
    if (s.pixels() >= best.pixels()) best = s;
  }
  if (best.pixels() == 0) return unreadable("HEIF");
  return best;
}

}  // namespace

Result<ImageSize> image_dimensions(std::string_view head, std::string_view type) {
  if (type == "image/png" || type == "image/apng") return png(head);
  if (type == "image/gif") return gif(head);
  if (type == "image/jpeg") return jpeg(head);
  if (type == "image/webp") return webp(head);
  if (type == "image/bmp") return bmp(head);
  if (type == "image/tiff") return tiff(head);
  if (type == "image/avif" || type == "image/heic" || type == "image/heif" || type == "image/heic-sequence" ||
      type == "image/heif-sequence")
    return heif(head);
  return make_error("not_an_image", "no dimensions are read for " + std::string(type));
}

}  // namespace core::storage
