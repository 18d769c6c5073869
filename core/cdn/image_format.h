#pragma once
// Image formats as the CDN sees them (docs/storage-cdn.md): which sources it makes variants of, which
// format a variant is encoded in for each Accept class, how a variant file is named and which headers
// it is served with.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cdn/accept.h"
#include "core/cdn/quality.h"

namespace core::cdn {

enum class ImageFormat { jpeg, png, webp, avif, gif, heic, tiff, unknown };

// `jpeg`, `png`, `webp`, `avif`, `gif`, `heic`, `tiff`, `unknown`: the value of the X-Image-Format header.
std::string_view format_name(ImageFormat format);

// `image/jpeg`, ...; `application/octet-stream` for unknown.
std::string_view format_content_type(ImageFormat format);

// Whether the CDN makes variants of media stored with this content type (parameters and case ignored):
// JPEG, PNG, WebP, GIF, AVIF, HEIC/HEIF and TIFF. Everything else, SVG included (a document, not pixels),
// is served as uploaded.
bool makes_variants(std::string_view content_type);

// The format of a variant. avif and webp: that format. legacy: PNG when the source has an alpha channel or
// is itself lossless graphics (PNG, GIF), so transparency and sharp edges survive; JPEG otherwise (opaque
// photos: JPEG, WebP, AVIF, HEIC, TIFF).
ImageFormat output_format(AcceptClass accept_class, ImageFormat source, bool source_has_alpha);

// The encoder setting for `quality` in `format`: JPEG and WebP use it as is; AVIF reaches the same visual
// quality at a lower setting, so it gets quality - 17 (imgproxy's defaults are jpeg 80, avif 63), never
// below 30; PNG is lossless and ignores it (returns 100).
int encoder_quality(const Quality& quality, ImageFormat format);

// The formats a variant of this class can have: its own for avif and webp; JPEG or PNG for legacy (which
// one depends on the source, output_format()), so a lookup tries both names and at most one exists.
std::vector<ImageFormat> class_formats(AcceptClass accept_class);

// The variant's file name inside the item's variant folder: `<quality>.<format>`, for example `thumb.avif`,
// `medium.jpeg`, `original.png`. The cache key is (quality, class); the format in the name lets a hit be
// served from the name alone, without opening the file to learn what it holds.
std::string variant_file_name(const Quality& quality, ImageFormat format);

// The format from a file's first bytes (64 bytes are enough for every format): JPEG FF D8 FF, PNG's
// signature, RIFF....WEBP, GIF8, an ISO BMFF `ftyp` box whose major or compatible brands include avif/avis
// (AVIF) or heic/heix/heim/heis (HEIC), TIFF II*\0 / MM\0*.
ImageFormat sniff_format(std::string_view first_bytes);

// Response header values of every CDN answer.
inline constexpr std::string_view kCacheControl = "public, max-age=31536000, immutable";
// The header naming the format a variant was encoded in (imgproxy and Cloudinary expose the same through
// Content-Type only; the extra header makes negotiation visible in logs and tests).
inline constexpr std::string_view kFormatHeader = "X-Image-Format";

// The headers of a variant response besides Content-Type (which is format_content_type(format)):
// Cache-Control, Vary: Accept, X-Image-Format and X-Content-Type-Options: nosniff.
std::vector<std::pair<std::string, std::string>> variant_headers(ImageFormat format);

// The headers of media served as uploaded (non-images, SVG): Cache-Control, X-Content-Type-Options:
// nosniff, and a Content-Security-Policy sandbox so that an uploaded HTML or SVG document opened from the
// CDN runs no script with the CDN's origin.
std::vector<std::pair<std::string, std::string>> as_uploaded_headers();

}  // namespace core::cdn
