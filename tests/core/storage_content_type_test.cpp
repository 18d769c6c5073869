// Content types read from an upload's bytes and checked against the declared one
// (core/storage/content_type.h).

#include "core/storage/content_type.h"

#include <doctest/doctest.h>

#include <string>

using namespace core::storage;
using namespace std::string_literals;

TEST_SUITE_BEGIN("storage");

namespace {
const std::string kPng = "\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0"s;
const std::string kJpeg = "\xFF\xD8\xFF\xE0\0\x10JFIF\0"s;
std::string riff(const char* kind) {
  return "RIFF\x24\0\0\0"s + kind + "VP8 ";
}
std::string ftyp(const char* major, const char* compat = "isom") {
  return "\0\0\0\x18"
         "ftyp"s +
         major + "\0\0\0\0"s + compat + "mp41";
}
}  // namespace

TEST_CASE("storage: sniffing knows the common formats by their magic numbers") {
  CHECK(sniff_content_type(kJpeg) == "image/jpeg");
  CHECK(sniff_content_type(kPng) == "image/png");
  CHECK(sniff_content_type("GIF89a\x01\0\x01\0"s) == "image/gif");
  CHECK(sniff_content_type("GIF87a\x01\0\x01\0"s) == "image/gif");
  CHECK(sniff_content_type(riff("WEBP")) == "image/webp");
  CHECK(sniff_content_type(riff("WAVE")) == "audio/wav");
  CHECK(sniff_content_type(riff("AVI ")) == "video/x-msvideo");
  CHECK(sniff_content_type(ftyp("avif", "mif1")) == "image/avif");
  CHECK(sniff_content_type(ftyp("mif1", "avif")) == "image/avif");
  CHECK(sniff_content_type(ftyp("heic", "mif1")) == "image/heic");
  CHECK(sniff_content_type(ftyp("isom")) == "video/mp4");
  CHECK(sniff_content_type(ftyp("qt  ", "qt  ")) == "video/quicktime");
  CHECK(sniff_content_type(ftyp("M4A ", "M4A ")) == "audio/mp4");
  CHECK(sniff_content_type("%PDF-1.7\n") == "application/pdf");
  CHECK(sniff_content_type("\x1A\x45\xDF\xA3\x9F\x42\x86\x81\x01\x42\x82\x84webm"s) == "video/webm");
  CHECK(sniff_content_type("\x1A\x45\xDF\xA3\x9F\x42\x82\x88matroska"s) == "video/x-matroska");
  CHECK(sniff_content_type("OggS\0\x02"s) == "audio/ogg");
  CHECK(sniff_content_type("fLaC\0\0\0\x22"s) == "audio/flac");
  CHECK(sniff_content_type("ID3\x04\0\0"s) == "audio/mpeg");
  CHECK(sniff_content_type("\xFF\xFB\x90\x64"s) == "audio/mpeg");
  CHECK(sniff_content_type("\xFF\xF1\x50\x80"s) == "audio/aac");
  CHECK(sniff_content_type("PK\x03\x04\x14\0"s) == "application/zip");
  CHECK(sniff_content_type("\x1F\x8B\x08\0"s) == "application/gzip");
  CHECK(sniff_content_type("II*\0\x08\0\0\0"s) == "image/tiff");
  CHECK(sniff_content_type("hello, world\n") == "text/plain");
  CHECK(sniff_content_type("Merhaba dünya, çğış\r\n\tson") == "text/plain");
  CHECK(sniff_content_type("\xEF\xBB\xBFwith a byte order mark"s) == "text/plain");
  // A multi-byte character cut off by the end of the sniffed head is still text.
  CHECK(sniff_content_type("abc\xC3"s) == "text/plain");
  // Binary junk, a NUL, invalid UTF-8 and overlong encodings are not text.
  CHECK(sniff_content_type("\0\x01\x02\x03"s) == "");
  CHECK(sniff_content_type("text with a \0 byte"s) == "");
  CHECK(sniff_content_type("\xC0\xAF"s) == "");
  CHECK(sniff_content_type("\xED\xA0\x80"s) == "");
  CHECK(sniff_content_type("\xFE\xFF\x00\x41"s) == "");
}

TEST_CASE("storage: a declared type must agree with the bytes") {
  CHECK(*resolve_content_type(kPng, "") == "image/png");
  CHECK(*resolve_content_type(kPng, "image/png") == "image/png");
  CHECK(*resolve_content_type(kPng, "IMAGE/PNG; foo=bar") == "image/png");
  CHECK(*resolve_content_type(kJpeg, "image/jpg") == "image/jpeg");
  CHECK(*resolve_content_type(ftyp("qt  ", "qt  "), "video/mp4") == "video/mp4");
  CHECK(*resolve_content_type(ftyp("isom"), "video/quicktime") == "video/quicktime");
  CHECK(*resolve_content_type("PK\x03\x04"s,
                              "application/vnd.openxmlformats-officedocument.wordprocessingml.document") ==
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  CHECK(*resolve_content_type("a,b\n1,2\n", "text/csv") == "text/csv");
  CHECK(*resolve_content_type("{\"a\":1}", "application/json") == "application/json");
  CHECK(*resolve_content_type("plain", "") == "text/plain");
  CHECK(*resolve_content_type(kPng, "application/octet-stream") == "image/png");
  CHECK(*resolve_content_type("\0\x01\x02"s, "") == "application/octet-stream");
  CHECK(*resolve_content_type("\0\x01\x02"s, "application/x-custom") == "application/x-custom");

  auto png_as_jpeg = resolve_content_type(kPng, "image/jpeg");
  REQUIRE_FALSE(png_as_jpeg.ok());
  CHECK(png_as_jpeg.error().code == "content_type_mismatch");
  CHECK(png_as_jpeg.error().message ==
        "the declared content type image/jpeg does not match the file's bytes, which are image/png");
  auto text_as_png = resolve_content_type("just text", "image/png");
  REQUIRE_FALSE(text_as_png.ok());
  CHECK(text_as_png.error().message ==
        "the declared content type image/png does not match the file's bytes, which are text");
  auto binary_as_text = resolve_content_type("\0\x01\x02"s, "text/plain");
  REQUIRE_FALSE(binary_as_text.ok());
  CHECK(binary_as_text.error().code == "content_type_mismatch");
  CHECK(resolve_content_type("\0\x01\x02"s, "image/png").error().code == "content_type_mismatch");
  CHECK(resolve_content_type("%PDF-1.4", "application/zip").error().code == "content_type_mismatch");
  CHECK(resolve_content_type(kPng, "text/html").error().code == "content_type_mismatch");
  CHECK(resolve_content_type(kPng, "png").error().code == "invalid_content_type");
  CHECK(resolve_content_type(kPng, "image/p ng").error().code == "invalid_content_type");
  CHECK(resolve_content_type(kPng, "image/png\r\nX: y").error().code == "invalid_content_type");
}

TEST_CASE("storage: the media type follows the content type") {
  CHECK(media_type_for("image/png") == "image");
  CHECK(media_type_for("video/quicktime") == "video");
  CHECK(media_type_for("audio/mpeg") == "audio");
  CHECK(media_type_for("application/pdf") == "doc");
  CHECK(media_type_for("text/plain") == "doc");
  CHECK(media_type_for("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet") == "doc");
  CHECK(media_type_for("application/zip") == "other");
  CHECK(media_type_for("application/octet-stream") == "other");
}

TEST_SUITE_END();
