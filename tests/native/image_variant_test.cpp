// native/image make_variant(): shrink on load to the bound width, orientation applied to the pixels, EXIF,
// GPS, XMP and comments stripped while the ICC profile is kept, the four output formats, the pixel limit
// (docs/storage-cdn.md).

#include <doctest/doctest.h>
#include <vips/vips.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "native/image/image.h"
#include "tests/native/image_test_images.h"
#include "tests/native/temp_dir.h"

using native::image::ImageFormat;
using native::image::make_variant;
using native::image::VariantSpec;

namespace {

struct Unref {
  void operator()(VipsImage* image) const { g_object_unref(image); }
};

// A made variant, read back with libvips.
struct Output {
  std::unique_ptr<VipsImage, Unref> image;
  std::string bytes;

  int width() const { return vips_image_get_width(image.get()); }
  int height() const { return vips_image_get_height(image.get()); }
  bool has(const char* field) const { return vips_image_get_typeof(image.get(), field) != 0; }
  std::vector<std::string> fields() const {
    std::vector<std::string> names;
    gchar** fields = vips_image_get_fields(image.get());
    for (gchar** field = fields; *field != nullptr; ++field) names.emplace_back(*field);
    g_strfreev(fields);
    return names;
  }
  std::string icc() const {
    if (!has("icc-profile-data")) return {};
    const void* data = nullptr;
    std::size_t length = 0;
    vips_image_get_blob(image.get(), "icc-profile-data", &data, &length);
    return std::string(static_cast<const char*>(data), length);
  }
  std::vector<double> pixel(int x, int y) const {
    double* values = nullptr;
    int count = 0;
    REQUIRE(vips_getpoint(image.get(), &values, &count, x, y, nullptr) == 0);
    std::vector<double> out(values, values + count);
    g_free(values);
    return out;
  }
};

Output read_output(const std::string& path) {
  Output out;
  out.image.reset(vips_image_new_from_file(path.c_str(), nullptr));
  REQUIRE(out.image != nullptr);
  out.bytes = image_test::read_file(path);
  return out;
}

ImageFormat magic(const std::string& bytes) {
  return core::cdn::sniff_format(std::string_view(bytes).substr(0, 64));
}

struct Folder {
  store_test::TempDir dir;
  Folder() { std::filesystem::create_directories(dir.path()); }
  std::string operator/(const std::string& name) const { return dir.str() + "/" + name; }
};

bool is_red(const std::vector<double>& p) {
  return p[0] > 200 && p[1] < 70 && p[2] < 70;
}

}  // namespace

TEST_SUITE("image_variant") {
  TEST_CASE("a thumb of a JPEG with orientation 6, GPS, XMP and a P3 profile, in every output format") {
    Folder folder;
    const std::string source = folder / "photo.jpg";
    image_test::write_photo_jpeg(source, 400, 300, 6);
    const std::string p3 = image_test::p3_profile();
    {
      // The source really carries what must be stripped and kept.
      Output original = read_output(source);
      REQUIRE(original.has("exif-ifd3-GPSLatitude"));
      REQUIRE(original.has("exif-ifd0-Make"));
      REQUIRE(original.has("xmp-data"));
      REQUIRE(original.icc() == p3);
      REQUIRE(original.bytes.find("TestCam") != std::string::npos);
      REQUIRE(original.bytes.find("Jane Private") != std::string::npos);
    }
    for (ImageFormat format : {ImageFormat::jpeg, ImageFormat::webp, ImageFormat::avif, ImageFormat::png}) {
      CAPTURE(core::cdn::format_name(format));
      const std::string dest = folder / ("thumb." + std::string(core::cdn::format_name(format)));
      auto made = make_variant(source, dest, VariantSpec{.max_width = 200, .quality = 75, .format = format});
      REQUIRE(made.ok());
      CHECK(made->format == format);
      CHECK(made->width == 200);
      CHECK(made->height == 267);

      Output out = read_output(dest);
      CHECK(magic(out.bytes) == format);
      // Stored 400 × 300 rotated 90° clockwise shows 300 × 400; bounded to width 200: 200 × 267.
      CHECK(out.width() == 200);
      CHECK(out.height() == 267);
      // The red block stored at the top left is displayed at the top right.
      CHECK(is_red(out.pixel(185, 15)));
      CHECK_FALSE(is_red(out.pixel(15, 15)));
      CHECK_FALSE(is_red(out.pixel(185, 250)));
      // Nothing of the source's metadata survives; what libvips writes afresh describes the output only.
      for (const std::string& field : out.fields()) {
        CAPTURE(field);
        CHECK(field.find("GPS") == std::string::npos);
        CHECK(field != "exif-ifd0-Make");
        CHECK(field != "xmp-data");
        CHECK(field != "iptc-data");
        if (field == "exif-ifd0-Orientation") CHECK(out.bytes.find("TestCam") == std::string::npos);
      }
      if (out.has("orientation")) CHECK(vips_image_get_orientation(out.image.get()) == 1);
      CHECK(out.bytes.find("TestCam") == std::string::npos);
      CHECK(out.bytes.find("Jane Private") == std::string::npos);
      CHECK(out.bytes.find("xmpmeta") == std::string::npos);
      // The colour profile is the source's, byte for byte.
      CHECK(out.icc() == p3);
    }
  }

  TEST_CASE("never upscaled; the original (no bound) is full size, rotated") {
    Folder folder;
    const std::string source = folder / "photo.jpg";
    image_test::write_photo_jpeg(source, 400, 300, 6);
    auto large = make_variant(source, folder / "large.jpg", VariantSpec{.max_width = 1920, .quality = 82});
    REQUIRE(large.ok());
    CHECK(large->width == 300);
    CHECK(large->height == 400);
    auto original = make_variant(source, folder / "original.webp",
                                 VariantSpec{.max_width = 0, .quality = 90, .format = ImageFormat::webp});
    REQUIRE(original.ok());
    Output out = read_output(folder / "original.webp");
    CHECK(out.width() == 300);
    CHECK(out.height() == 400);
    CHECK(is_red(out.pixel(280, 20)));
    CHECK_FALSE(out.has("exif-ifd3-GPSLatitude"));
  }

  TEST_CASE("every orientation ends upright") {
    Folder folder;
    // Where the stored top-left block is displayed, per EXIF orientation (1..8), on a 400 × 300 source.
    struct Case {
      int orientation, width, height, red_x, red_y;
    };
    const Case cases[] = {{1, 400, 300, 20, 20},   {2, 400, 300, 380, 20}, {3, 400, 300, 380, 280},
                          {4, 400, 300, 20, 280},  {5, 300, 400, 20, 20},  {6, 300, 400, 280, 20},
                          {7, 300, 400, 280, 380}, {8, 300, 400, 20, 380}};
    for (const Case& c : cases) {
      CAPTURE(c.orientation);
      const std::string source = folder / ("o" + std::to_string(c.orientation) + ".jpg");
      image_test::write_photo_jpeg(source, 400, 300, c.orientation);
      const std::string dest = source + ".png";
      REQUIRE(make_variant(source, dest, VariantSpec{.max_width = 0, .format = ImageFormat::png}).ok());
      Output out = read_output(dest);
      CHECK(out.width() == c.width);
      CHECK(out.height() == c.height);
      CHECK(is_red(out.pixel(c.red_x, c.red_y)));
    }
  }

  TEST_CASE("alpha survives in PNG, WebP and AVIF; PNG text comments do not") {
    Folder folder;
    const std::string source = folder / "logo.png";
    image_test::write_alpha_png(source, 640, 320);
    REQUIRE(read_output(source).has("png-comment-0-Author"));
    for (ImageFormat format : {ImageFormat::png, ImageFormat::webp, ImageFormat::avif}) {
      CAPTURE(core::cdn::format_name(format));
      const std::string dest = folder / ("small." + std::string(core::cdn::format_name(format)));
      auto made = make_variant(source, dest, VariantSpec{.max_width = 480, .quality = 75, .format = format});
      REQUIRE(made.ok());
      Output out = read_output(dest);
      CHECK(magic(out.bytes) == format);
      CHECK(out.width() == 480);
      CHECK(out.height() == 240);
      CHECK(vips_image_hasalpha(out.image.get()));
      CHECK(out.pixel(10, 10)[3] > 250);  // opaque blue half
      CHECK(out.pixel(470, 10)[3] < 5);   // transparent half
      for (const std::string& field : out.fields()) CHECK(field.find("comment") == std::string::npos);
      CHECK(out.bytes.find("Author") == std::string::npos);
    }
  }

  TEST_CASE("a higher quality makes a larger file, in each lossy format") {
    Folder folder;
    const std::string source = folder / "photo.jpg";
    image_test::write_photo_jpeg(source, 800, 600, 1);
    for (ImageFormat format : {ImageFormat::jpeg, ImageFormat::webp, ImageFormat::avif}) {
      CAPTURE(core::cdn::format_name(format));
      std::uintmax_t previous = 0;
      for (int quality : {40, 60, 80, 95}) {
        CAPTURE(quality);
        const std::string dest = folder / ("q" + std::to_string(quality));
        REQUIRE(
            make_variant(source, dest, VariantSpec{.max_width = 480, .quality = quality, .format = format})
                .ok());
        const std::uintmax_t size = std::filesystem::file_size(dest);
        CHECK(size > previous);
        previous = size;
      }
    }
  }

  TEST_CASE("sources over the pixel limit are refused before decoding; the destination is not written") {
    Folder folder;
    const std::string photo = folder / "photo.jpg";
    image_test::write_photo_jpeg(photo, 400, 300, 1);
    auto refused =
        make_variant(photo, folder / "out.jpg", VariantSpec{.max_width = 200, .max_pixels = 119999});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == "image_too_large");
    CHECK(refused.error().message == "The image has 120000 pixels; the limit is 119999");
    CHECK_FALSE(std::filesystem::exists(folder / "out.jpg"));
    CHECK(make_variant(photo, folder / "out.jpg", VariantSpec{.max_width = 200, .max_pixels = 120000}).ok());

    // 9 gigapixels in the header and garbage after it: refused by the header alone.
    const std::string huge = folder / "huge.png";
    image_test::write_huge_png_header(huge, 100000, 90000);
    const auto start = std::chrono::steady_clock::now();
    auto huge_refused =
        make_variant(huge, folder / "huge.webp", VariantSpec{.max_width = 200, .format = ImageFormat::webp});
    const auto elapsed = std::chrono::steady_clock::now() - start;
    REQUIRE_FALSE(huge_refused.ok());
    CHECK(huge_refused.error().code == "image_too_large");
    CHECK_FALSE(std::filesystem::exists(folder / "huge.webp"));
    // libvips decodes this garbage leniently (as grey) in about 30 s of CPU when asked to; refused, it costs
    // one header read.
    CHECK(elapsed < std::chrono::seconds(5));
  }

  TEST_CASE("unreadable and unsupported sources") {
    Folder folder;
    std::ofstream(folder / "text.jpg") << "not an image";
    auto text = make_variant(folder / "text.jpg", folder / "out.jpg", VariantSpec{.max_width = 200});
    REQUIRE_FALSE(text.ok());
    CHECK(text.error().code == "unreadable_image");
    std::ofstream(folder / "d.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"/>";
    auto svg = make_variant(folder / "d.svg", folder / "out.png", VariantSpec{.format = ImageFormat::png});
    REQUIRE_FALSE(svg.ok());
    CHECK(svg.error().code == "unsupported_image");
    CHECK_FALSE(std::filesystem::exists(folder / "out.jpg"));
  }

  TEST_CASE("variants made on many threads at once") {
    Folder folder;
    const std::string source = folder / "photo.jpg";
    image_test::write_photo_jpeg(source, 600, 400, 8);
    const ImageFormat formats[] = {ImageFormat::jpeg, ImageFormat::webp, ImageFormat::avif, ImageFormat::png};
    std::vector<std::thread> threads;
    std::vector<int> ok(8, 0);
    for (int i = 0; i < 8; ++i) {
      threads.emplace_back([&, i] {
        auto made =
            make_variant(source, folder / ("t" + std::to_string(i)),
                         VariantSpec{.max_width = 100 + 20 * i, .quality = 70, .format = formats[i % 4]});
        ok[i] = made.ok() && made->width == 100 + 20 * i && made->height == (100 + 20 * i) * 3 / 2 ? 1 : 0;
      });
    }
    for (auto& thread : threads) thread.join();
    for (int i = 0; i < 8; ++i) {
      CAPTURE(i);
      CHECK(ok[i] == 1);
    }
  }
}
