#pragma once
// The `Accept` header of a CDN request reduced to one of three classes (docs/storage-cdn.md), which is all
// the variant cache keys on: a browser that lists AVIF gets AVIF, one that lists WebP gets WebP, anything
// else gets a legacy format (JPEG or PNG). Three classes instead of the raw header keep the cache small and
// `Vary: Accept` honest.

#include <string_view>

namespace core::cdn {

enum class AcceptClass { avif, webp, legacy };

// The class's name as used in variant file names: `avif`, `webp`, `legacy`.
std::string_view class_name(AcceptClass accept_class);

// Parses `Accept` as RFC 9110 §12.5.1 media ranges with q-values. A modern format counts only when it is
// named explicitly (`image/avif`, `image/webp`, any letter case) with q > 0: wildcards (`image/*`, `*/*`)
// never do, since browsers without WebP or AVIF send them too (imgproxy and Cloudinary decide the same
// way). When both are accepted the higher q wins and a tie goes to AVIF (smaller files). A range repeated
// with several q-values counts at its first occurrence. Elements that do not parse (no `/`, a malformed
// q) are ignored. An empty or absent header is legacy. Legacy is served even when the header rules out
// JPEG and PNG: HTTP lets a server ignore Accept rather than answer 406, and an image is better than an
// error.
AcceptClass accept_class(std::string_view accept);

}  // namespace core::cdn
