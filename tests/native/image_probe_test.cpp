// native/image probe(): format, dimensions, alpha and orientation from the header alone
// (docs/storage-cdn.md).

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>

#include "native/image/image.h"
#include "tests/native/image_test_images.h"
#include "tests/native/temp_dir.h"

using native::image::ImageFormat;
using native::image::probe;

TEST_SUITE("image_probe") {
  TEST_CASE("a JPEG with EXIF orientation 6: stored dimensions and the orientation") {
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    const std::string path = dir.str() + "/photo.jpg";
    image_test::write_photo_jpeg(path, 400, 300, 6);
    auto info = probe(path);
    REQUIRE(info.ok());
    CHECK(info->format == ImageFormat::jpeg);
    CHECK(info->width == 400);
    CHECK(info->height == 300);
    CHECK(info->orientation == 6);
    CHECK_FALSE(info->has_alpha);
    CHECK(info->pages == 1);
  }

  TEST_CASE("a PNG with alpha") {
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    const std::string path = dir.str() + "/logo.png";
    image_test::write_alpha_png(path, 64, 32);
    auto info = probe(path);
    REQUIRE(info.ok());
    CHECK(info->format == ImageFormat::png);
    CHECK(info->width == 64);
    CHECK(info->height == 32);
    CHECK(info->has_alpha);
    CHECK(info->orientation == 1);
  }

  TEST_CASE("WebP, AVIF, GIF and TIFF are recognised by their bytes, not their names") {
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    const std::pair<const char*, ImageFormat> cases[] = {{".webp", ImageFormat::webp},
                                                         {".avif", ImageFormat::avif},
                                                         {".gif", ImageFormat::gif},
                                                         {".tif", ImageFormat::tiff}};
    for (const auto& [suffix, format] : cases) {
      CAPTURE(suffix);
      const std::string made = dir.str() + "/made" + suffix;
      image_test::write_plain(made, 40, 30);
      const std::string renamed = dir.str() + "/upload-" + std::string(suffix + 1) + ".bin";
      std::filesystem::rename(made, renamed);
      auto info = probe(renamed);
      REQUIRE(info.ok());
      CHECK(info->format == format);
      CHECK(info->width == 40);
      CHECK(info->height == 30);
    }
  }

  TEST_CASE("a huge header is read without decoding the pixels") {
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    const std::string path = dir.str() + "/huge.png";
    image_test::write_huge_png_header(path, 100000, 90000);
    const auto start = std::chrono::steady_clock::now();
    auto info = probe(path);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    REQUIRE(info.ok());
    CHECK(info->format == ImageFormat::png);
    CHECK(info->width == 100000);
    CHECK(info->height == 90000);
    // 9 gigapixels decoded would take minutes and 27 GB; the header takes microseconds. (The file's IDAT is
    // garbage, so a decode would fail rather than answer.)
    CHECK(elapsed < std::chrono::seconds(2));
  }

  TEST_CASE("not an image, a missing file, an empty file: unreadable_image") {
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    std::ofstream(dir.str() + "/text.jpg") << "hello, this is text and not a JPEG at all";
    std::ofstream(dir.str() + "/empty.png");
    std::ofstream(dir.str() + "/truncated.jpg", std::ios::binary) << std::string("\xFF\xD8\xFF", 3);
    for (const char* name : {"/text.jpg", "/empty.png", "/missing.jpg", "/truncated.jpg"}) {
      CAPTURE(name);
      auto info = probe(dir.str() + name);
      REQUIRE_FALSE(info.ok());
      CHECK(info.error().code == "unreadable_image");
    }
  }

  TEST_CASE("an SVG is an image libvips reads, but not one the CDN makes variants of") {
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    const std::string path = dir.str() + "/drawing.svg";
    std::ofstream(path) << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
                           "<rect width=\"10\" height=\"10\" fill=\"red\"/></svg>";
    auto info = probe(path);
    REQUIRE_FALSE(info.ok());
    CHECK(info.error().code == "unsupported_image");
  }
}
