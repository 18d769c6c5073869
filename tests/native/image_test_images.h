#pragma once
// Images for the native/image suites, made with libvips itself so that every property a test checks
// (EXIF orientation, GPS tags, XMP, an ICC profile, alpha, a marked corner) is known exactly.

#include <cstdint>
#include <string>

namespace image_test {

// The `p3` profile libvips ships (Display P3): attached, never converted to, so pixels stay as drawn.
std::string p3_profile();

// A photo-like JPEG of `width` × `height` stored pixels (noise around mid grey, quality 95) whose top-left
// 1/4 × 1/3 block is pure red, carrying: EXIF orientation `orientation`, EXIF Make "TestCam", GPS latitude
// and longitude, an XMP packet with a creator "Jane Private", and the P3 ICC profile.
void write_photo_jpeg(const std::string& path, int width, int height, int orientation);

// A PNG with an alpha channel (RGBA): left half opaque blue, right half fully transparent, and a PNG text
// comment "Jane Private".
void write_alpha_png(const std::string& path, int width, int height);

// Photo-like noise without metadata, in the format the extension of `path` names (.webp, .avif, .gif, ...).
void write_plain(const std::string& path, int width, int height);

// A PNG whose header claims `width` × `height` pixels followed by a small IDAT chunk of garbage: reading the
// header succeeds, decoding would fail (or take gigabytes).
void write_huge_png_header(const std::string& path, std::uint32_t width, std::uint32_t height);

// The file's bytes.
std::string read_file(const std::string& path);

}  // namespace image_test
