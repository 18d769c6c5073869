// The CDN's named qualities, output formats, variant names and headers (core/cdn/quality.h,
// core/cdn/image_format.h, docs/storage-cdn.md).

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/cdn/image_format.h"
#include "core/cdn/quality.h"

using namespace core::cdn;

TEST_SUITE("cdn_variant") {
  TEST_CASE("the named qualities, each with its width and quality") {
    auto thumb = quality_named("thumb");
    REQUIRE(thumb.ok());
    CHECK(thumb->max_width == 200);
    CHECK(thumb->quality == 70);
    CHECK(quality_named("small")->max_width == 480);
    CHECK(quality_named("medium")->max_width == 960);
    CHECK(quality_named("large")->max_width == 1920);
    CHECK(quality_named("large")->quality == 82);
    CHECK(kOriginal.max_width == 0);
    CHECK(kOriginal.quality == 90);
  }

  TEST_CASE("an unknown name is not found; `original` is not a segment; names are exact") {
    for (const char* name : {"", "original", "Thumb", "THUMB", "thumb ", "xl", "thumb.avif", "../thumb"}) {
      CAPTURE(name);
      auto quality = quality_named(name);
      REQUIRE_FALSE(quality.ok());
      CHECK(quality.error().code == "not_found");
    }
  }

  TEST_CASE("output format per class and source") {
    CHECK(output_format(AcceptClass::avif, ImageFormat::png, true) == ImageFormat::avif);
    CHECK(output_format(AcceptClass::webp, ImageFormat::jpeg, false) == ImageFormat::webp);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::jpeg, false) == ImageFormat::jpeg);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::webp, false) == ImageFormat::jpeg);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::avif, false) == ImageFormat::jpeg);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::heic, false) == ImageFormat::jpeg);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::webp, true) == ImageFormat::png);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::png, false) == ImageFormat::png);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::gif, false) == ImageFormat::png);
    CHECK(output_format(AcceptClass::legacy, ImageFormat::tiff, true) == ImageFormat::png);
  }

  TEST_CASE("encoder quality per format") {
    Quality medium = *quality_named("medium");
    CHECK(encoder_quality(medium, ImageFormat::jpeg) == 80);
    CHECK(encoder_quality(medium, ImageFormat::webp) == 80);
    CHECK(encoder_quality(medium, ImageFormat::avif) == 63);
    CHECK(encoder_quality(medium, ImageFormat::png) == 100);
    CHECK(encoder_quality(Quality{"low", 10, 40}, ImageFormat::avif) == 30);
  }

  TEST_CASE("variant file names are (quality, format)") {
    CHECK(variant_file_name(*quality_named("thumb"), ImageFormat::avif) == "thumb.avif");
    CHECK(variant_file_name(*quality_named("large"), ImageFormat::webp) == "large.webp");
    CHECK(variant_file_name(*quality_named("small"), ImageFormat::jpeg) == "small.jpeg");
    CHECK(variant_file_name(kOriginal, ImageFormat::png) == "original.png");
  }

  TEST_CASE("the formats each Accept class can be served in") {
    CHECK(class_formats(AcceptClass::avif) == std::vector<ImageFormat>{ImageFormat::avif});
    CHECK(class_formats(AcceptClass::webp) == std::vector<ImageFormat>{ImageFormat::webp});
    CHECK(class_formats(AcceptClass::legacy) ==
          std::vector<ImageFormat>{ImageFormat::jpeg, ImageFormat::png});
    // every format output_format() picks for a class is among them
    for (AcceptClass c : {AcceptClass::avif, AcceptClass::webp, AcceptClass::legacy}) {
      for (ImageFormat source : {ImageFormat::jpeg, ImageFormat::png, ImageFormat::webp, ImageFormat::avif,
                                 ImageFormat::gif, ImageFormat::heic, ImageFormat::tiff}) {
        for (bool alpha : {false, true}) {
          std::vector<ImageFormat> formats = class_formats(c);
          CHECK(std::find(formats.begin(), formats.end(), output_format(c, source, alpha)) != formats.end());
        }
      }
    }
  }

  TEST_CASE("which content types get variants") {
    for (const char* type : {"image/jpeg", "image/png", "image/webp", "image/gif", "image/avif", "image/heic",
                             "image/heif", "image/tiff", "IMAGE/JPEG", " image/png ; charset=x"}) {
      CAPTURE(type);
      CHECK(makes_variants(type));
    }
    for (const char* type : {"image/svg+xml", "image/x-icon", "application/pdf", "video/mp4", "text/html", "",
                             "image/jpeg2", "image"}) {
      CAPTURE(type);
      CHECK_FALSE(makes_variants(type));
    }
  }

  TEST_CASE("formats sniffed from the first bytes") {
    using namespace std::string_literals;
    CHECK(sniff_format("\xFF\xD8\xFF\xE0\0\x10JFIF"s) == ImageFormat::jpeg);
    CHECK(sniff_format("\x89PNG\r\n\x1A\n\0\0\0\rIHDR"s) == ImageFormat::png);
    CHECK(sniff_format("RIFF\x24\0\0\0WEBPVP8 "s) == ImageFormat::webp);
    CHECK(sniff_format("GIF89a\x01\0"s) == ImageFormat::gif);
    CHECK(sniff_format("II*\0\x08\0\0\0"s) == ImageFormat::tiff);
    CHECK(sniff_format("MM\0*\0\0\0\x08"s) == ImageFormat::tiff);
    // libheif's AVIF: major brand avif
    CHECK(sniff_format("\0\0\0\x1C"
                       "ftypavif\0\0\0\0avifmif1miaf"s) == ImageFormat::avif);
    // major brand mif1, AVIF among the compatible brands
    CHECK(sniff_format("\0\0\0\x18"
                       "ftypmif1\0\0\0\0mif1avif"s) == ImageFormat::avif);
    CHECK(sniff_format("\0\0\0\x18"
                       "ftypheic\0\0\0\0mif1heic"s) == ImageFormat::heic);
    // a brand past the box's end does not count
    CHECK(sniff_format("\0\0\0\x14"
                       "ftypmif1\0\0\0\0mif1avif"s) == ImageFormat::unknown);
    // an MP4 is not an image
    CHECK(sniff_format("\0\0\0\x18"
                       "ftypisom\0\0\0\0isomiso2"s) == ImageFormat::unknown);
    CHECK(sniff_format("") == ImageFormat::unknown);
    CHECK(sniff_format("\xFF\xD8"s) == ImageFormat::unknown);
    CHECK(sniff_format("RIFF\x24\0\0\0WAVE"s) == ImageFormat::unknown);
  }

  TEST_CASE("format names and content types") {
    CHECK(format_name(ImageFormat::avif) == "avif");
    CHECK(format_name(ImageFormat::jpeg) == "jpeg");
    CHECK(format_content_type(ImageFormat::avif) == "image/avif");
    CHECK(format_content_type(ImageFormat::webp) == "image/webp");
    CHECK(format_content_type(ImageFormat::jpeg) == "image/jpeg");
    CHECK(format_content_type(ImageFormat::png) == "image/png");
    CHECK(format_content_type(ImageFormat::unknown) == "application/octet-stream");
  }

  TEST_CASE("response headers") {
    using Headers = std::vector<std::pair<std::string, std::string>>;
    CHECK(variant_headers(ImageFormat::webp) ==
          Headers{{"Cache-Control", "public, max-age=31536000, immutable"},
                  {"Vary", "Accept"},
                  {"X-Image-Format", "webp"},
                  {"X-Content-Type-Options", "nosniff"}});
    Headers plain = as_uploaded_headers();
    REQUIRE(plain.size() == 3);
    CHECK(plain[0] ==
          std::pair<std::string, std::string>{"Cache-Control", "public, max-age=31536000, immutable"});
    CHECK(plain[1] == std::pair<std::string, std::string>{"X-Content-Type-Options", "nosniff"});
    CHECK(plain[2].first == "Content-Security-Policy");
    CHECK(plain[2].second.starts_with("sandbox;"));
  }
}
