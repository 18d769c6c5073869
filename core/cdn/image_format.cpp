#include "core/cdn/image_format.h"

#include <algorithm>

#include "core/ascii.h"

namespace core::cdn {

std::string_view format_name(ImageFormat format) {
  switch (format) {
    case ImageFormat::jpeg:
      return "jpeg";
    case ImageFormat::png:
      return "png";
    case ImageFormat::webp:
      return "webp";
    case ImageFormat::avif:
      return "avif";
    case ImageFormat::gif:
      return "gif";
    case ImageFormat::heic:
      return "heic";
    case ImageFormat::tiff:
      return "tiff";
    case ImageFormat::unknown:
      break;
  }
  return "unknown";
}

std::string_view format_content_type(ImageFormat format) {
  switch (format) {
    case ImageFormat::jpeg:
      return "image/jpeg";
    case ImageFormat::png:
      return "image/png";
    case ImageFormat::webp:
      return "image/webp";
    case ImageFormat::avif:
      return "image/avif";
    case ImageFormat::gif:
      return "image/gif";
    case ImageFormat::heic:
      return "image/heic";
    case ImageFormat::tiff:
      return "image/tiff";
    case ImageFormat::unknown:
      break;
  }
  return "application/octet-stream";
}

bool makes_variants(std::string_view content_type) {
  std::string type = to_ascii_lower(trim_ascii_space(content_type.substr(0, content_type.find(';'))));
  static constexpr std::string_view kTypes[] = {"image/jpeg", "image/png",  "image/webp", "image/gif",
                                                "image/avif", "image/heic", "image/heif", "image/tiff"};
  return std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes);
}

ImageFormat output_format(AcceptClass accept_class, ImageFormat source, bool source_has_alpha) {
  switch (accept_class) {
    case AcceptClass::avif:
      return ImageFormat::avif;
    case AcceptClass::webp:
      return ImageFormat::webp;
    case AcceptClass::legacy:
      break;
  }
  if (source_has_alpha || source == ImageFormat::png || source == ImageFormat::gif) return ImageFormat::png;
  return ImageFormat::jpeg;
}

int encoder_quality(const Quality& quality, ImageFormat format) {
  switch (format) {
    case ImageFormat::png:
      return 100;
    case ImageFormat::avif:
      return std::max(30, quality.quality - 17);
    default:
      return quality.quality;
  }
}

std::vector<ImageFormat> class_formats(AcceptClass accept_class) {
  switch (accept_class) {
    case AcceptClass::avif:
      return {ImageFormat::avif};
    case AcceptClass::webp:
      return {ImageFormat::webp};
    case AcceptClass::legacy:
      break;
  }
  return {ImageFormat::jpeg, ImageFormat::png};
}

std::string variant_file_name(const Quality& quality, ImageFormat format) {
  std::string name(quality.name);
  name += '.';
  name += format_name(format);
  return name;
}

ImageFormat sniff_format(std::string_view b) {
  auto starts = [&](std::string_view prefix, std::size_t at = 0) {
    return b.size() >= at + prefix.size() && b.substr(at, prefix.size()) == prefix;
  };
  if (starts("\xFF\xD8\xFF")) return ImageFormat::jpeg;
  if (starts("\x89PNG\r\n\x1A\n")) return ImageFormat::png;
  if (starts("RIFF") && starts("WEBP", 8)) return ImageFormat::webp;
  if (starts("GIF87a") || starts("GIF89a")) return ImageFormat::gif;
  if (starts(std::string_view("II*\0", 4)) || starts(std::string_view("MM\0*", 4))) return ImageFormat::tiff;
  if (starts("ftyp", 4)) {
    // The major brand, then the compatible brands (ISO/IEC 14496-12 §4.3), within the box and the bytes
    // given.
    std::size_t box = (std::size_t{static_cast<unsigned char>(b[0])} << 24) |
                      (std::size_t{static_cast<unsigned char>(b[1])} << 16) |
                      (std::size_t{static_cast<unsigned char>(b[2])} << 8) | static_cast<unsigned char>(b[3]);
    std::size_t end = std::min(box, b.size());
    bool heic = false;
    for (std::size_t at = 8; at + 4 <= end; at += at == 8 ? 8 : 4) {
      std::string_view brand = b.substr(at, 4);
      if (brand == "avif" || brand == "avis") return ImageFormat::avif;
      if (brand == "heic" || brand == "heix" || brand == "heim" || brand == "heis") heic = true;
    }
    if (heic) return ImageFormat::heic;
  }
  return ImageFormat::unknown;
}

std::vector<std::pair<std::string, std::string>> variant_headers(ImageFormat format) {
  return {
      {"Cache-Control", std::string(kCacheControl)},
      {"Vary", "Accept"},
      {std::string(kFormatHeader), std::string(format_name(format))},
      {"X-Content-Type-Options", "nosniff"},
  };
}

std::vector<std::pair<std::string, std::string>> as_uploaded_headers() {
  return {
      {"Cache-Control", std::string(kCacheControl)},
      {"X-Content-Type-Options", "nosniff"},
      {"Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"},
  };
}

}  // namespace core::cdn
