// Image dimensions from header bytes (core/storage/image_size.h).

#include "core/storage/image_size.h"

#include <doctest/doctest.h>

#include <string>

using namespace core::storage;
using namespace std::string_literals;

TEST_SUITE_BEGIN("storage");

namespace {
std::string be32(std::uint32_t v) {
  return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}
std::string le16(std::uint32_t v) {
  return {char(v), char(v >> 8)};
}
std::string le24(std::uint32_t v) {
  return {char(v), char(v >> 8), char(v >> 16)};
}
std::string le32(std::uint32_t v) {
  return {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
}
std::string png(std::uint32_t w, std::uint32_t h) {
  return "\x89PNG\r\n\x1A\n\0\0\0\rIHDR"s + be32(w) + be32(h) + "\x08\x06\0\0\0"s;
}
}  // namespace

TEST_CASE("storage: PNG, GIF and BMP sizes") {
  auto p = image_dimensions(png(640, 480), "image/png");
  REQUIRE(p.ok());
  CHECK(p->width == 640);
  CHECK(p->height == 480);
  CHECK(image_dimensions(png(100000, 100000), "image/png")->pixels() == 10'000'000'000ULL);
  auto g = image_dimensions("GIF89a"s + le16(320) + le16(200) + "\0\0\0"s, "image/gif");
  CHECK(g->width == 320);
  CHECK(g->height == 200);
  std::string bmp =
      "BM"s + std::string(16, '\0') + le32(50) + le32(static_cast<std::uint32_t>(-70)) + "\1\0"s;
  auto b = image_dimensions(bmp, "image/bmp");
  CHECK(b->width == 50);
  CHECK(b->height == 70);
  CHECK(image_dimensions("\x89PNG\r\n\x1A\n\0\0"s, "image/png").error().code == "image_unreadable");
}

TEST_CASE("storage: JPEG size from the first frame header after other segments") {
  std::string app1 = "\xFF\xE1"s + "\x00\x10"s + std::string(14, 'x');
  std::string sof = "\xFF\xC2\x00\x11\x08"s + "\x03\x00"s /*768 high*/ + "\x04\x00"s /*1024 wide*/ + "\x03";
  std::string jpeg = "\xFF\xD8"s + app1 + "\xFF\xFF"s + sof + std::string(10, '\0');
  auto j = image_dimensions(jpeg, "image/jpeg");
  REQUIRE(j.ok());
  CHECK(j->width == 1024);
  CHECK(j->height == 768);
  // The scan starts before any frame header, or the header lies past the bytes given: unreadable.
  CHECK(image_dimensions("\xFF\xD8\xFF\xDA\x00\x08"s, "image/jpeg").error().code == "image_unreadable");
  CHECK(image_dimensions("\xFF\xD8"s + app1, "image/jpeg").error().code == "image_unreadable");
  CHECK(image_dimensions("\xFF\xD8\xFF\xE1\x00\x01"s, "image/jpeg").error().code == "image_unreadable");
}

TEST_CASE("storage: WebP sizes from VP8, VP8L and VP8X") {
  std::string vp8 =
      "RIFF\0\0\0\0WEBPVP8 \0\0\0\0"s + "\0\0\0"s + "\x9D\x01\x2A"s + le16(300) + le16(150) + "\0\0"s;
  auto a = image_dimensions(vp8, "image/webp");
  REQUIRE(a.ok());
  CHECK(a->width == 300);
  CHECK(a->height == 150);
  const std::uint32_t bits = (400 - 1) | ((250 - 1) << 14);
  std::string vp8l = "RIFF\0\0\0\0WEBPVP8L\0\0\0\0"s + "\x2F"s + le32(bits) + "\0\0\0\0\0"s;
  auto l = image_dimensions(vp8l, "image/webp");
  CHECK(l->width == 400);
  CHECK(l->height == 250);
  std::string vp8x =
      "RIFF\0\0\0\0WEBPVP8X\0\0\0\0"s + "\0\0\0\0"s + le24(20000 - 1) + le24(30000 - 1) + "\0\0"s;
  auto x = image_dimensions(vp8x, "image/webp");
  CHECK(x->width == 20000);
  CHECK(x->height == 30000);
  CHECK(image_dimensions("RIFF\0\0\0\0WEBPJUNK"s + std::string(20, '\0'), "image/webp").error().code ==
        "image_unreadable");
}

TEST_CASE("storage: HEIF and AVIF take the largest ispe; TIFF its first IFD; others are not images") {
  std::string heif =
      "\0\0\0\x18"
      "ftypavif"s +
      std::string(12, '\0') + "\0\0\0\x14ispe\0\0\0\0"s + be32(512) + be32(512) + "\0\0\0\x14ispe\0\0\0\0"s +
      be32(4096) + be32(3072);
  auto h = image_dimensions(heif, "image/avif");
  REQUIRE(h.ok());
  CHECK(h->width == 4096);
  CHECK(h->height == 3072);
  CHECK(image_dimensions("\0\0\0\x18"
                         "ftypheic"s,
                         "image/heic")
            .error()
            .code == "image_unreadable");
  std::string tiff = "II*\0"s + le32(8) + le16(2) + le16(256) + le16(3) + le32(1) + le16(800) + le16(0) +
                     le16(257) + le16(4) + le32(1) + le32(600);
  auto t = image_dimensions(tiff, "image/tiff");
  REQUIRE(t.ok());
  CHECK(t->width == 800);
  CHECK(t->height == 600);
  CHECK(image_dimensions("whatever", "video/mp4").error().code == "not_an_image");
}

TEST_SUITE_END();
