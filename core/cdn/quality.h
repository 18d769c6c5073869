#pragma once
// The CDN's named qualities (docs/storage-cdn.md): `{cdn_url}/f/<media_id>/<quality>` names one of a small
// fixed set of widths and encoder qualities; no segment is the original. Modelled on Cloudinary's named
// transformations and imgproxy's presets: a closed set, so that nobody can make the CDN store an unbounded
// number of variants of one item.

#include <array>
#include <string_view>

#include "core/result.h"

namespace core::cdn {

// One named quality. `max_width` bounds the displayed width (after the EXIF orientation is applied); a
// smaller image is never upscaled. 0 means no bound (the original). `quality` is on the JPEG scale
// (1..100); encoder_quality() maps it per output format.
struct Quality {
  std::string_view name;
  int max_width = 0;
  int quality = 0;
};

inline constexpr std::array<Quality, 4> kQualities{{
    {"thumb", 200, 70},
    {"small", 480, 75},
    {"medium", 960, 80},
    {"large", 1920, 82},
}};

// The original (no quality segment): full size, re-encoded at a high quality so that metadata is stripped
// the same way as in every other variant. Not reachable by name.
inline constexpr Quality kOriginal{"original", 0, 90};

// The quality a path segment names. Names are matched exactly (lower case); `original` is not a segment
// (the original's only address is the bare media URL). Error: `not_found`.
Result<Quality> quality_named(std::string_view segment);

}  // namespace core::cdn
