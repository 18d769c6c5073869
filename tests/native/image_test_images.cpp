#include "tests/native/image_test_images.h"

#include <vips/vips.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>

namespace image_test {

namespace {

struct Unref {
  void operator()(VipsImage* image) const { g_object_unref(image); }
};
using ImagePtr = std::unique_ptr<VipsImage, Unref>;

void check(int status, const char* what) {
  if (status != 0) {
    std::string message = std::string(what) + ": " + vips_error_buffer();
    vips_error_clear();
    throw std::runtime_error(message);
  }
}

void ensure_vips() {
  static bool started = [] { return VIPS_INIT("image_tests") == 0; }();
  if (!started) throw std::runtime_error("libvips did not start");
}

// Three bands of independent noise around 128, in memory so that it can be drawn on.
ImagePtr noise_rgb(int width, int height) {
  ensure_vips();
  VipsImage* bands[3];
  for (auto& band : bands)
    check(vips_gaussnoise(&band, width, height, "mean", 128.0, "sigma", 28.0, nullptr), "noise");
  VipsImage* joined = nullptr;
  check(vips_bandjoin(bands, &joined, 3, nullptr), "bandjoin");
  for (auto* band : bands) g_object_unref(band);
  ImagePtr joined_owner(joined);
  VipsImage* rgb = nullptr;
  check(vips_cast_uchar(joined, &rgb, nullptr), "cast");
  ImagePtr rgb_owner(rgb);
  VipsImage* srgb = nullptr;
  check(vips_copy(rgb, &srgb, "interpretation", VIPS_INTERPRETATION_sRGB, nullptr), "copy");
  ImagePtr srgb_owner(srgb);
  VipsImage* memory = vips_image_copy_memory(srgb);
  if (memory == nullptr) check(-1, "copy_memory");
  return ImagePtr(memory);
}

}  // namespace

std::string p3_profile() {
  ensure_vips();
  VipsBlob* blob = nullptr;
  check(vips_profile_load("p3", &blob, nullptr), "profile_load");
  std::size_t length = 0;
  const void* data = vips_blob_get(blob, &length);
  std::string profile(static_cast<const char*>(data), length);
  vips_area_unref(VIPS_AREA(blob));
  return profile;
}

void write_photo_jpeg(const std::string& path, int width, int height, int orientation) {
  ImagePtr image = noise_rgb(width, height);
  double red[] = {255, 0, 0};
  check(vips_draw_rect(image.get(), red, 3, 0, 0, width / 4, height / 3, "fill", TRUE, nullptr), "draw_rect");
  VipsImage* tagged = nullptr;
  check(vips_copy(image.get(), &tagged, nullptr), "copy");
  ImagePtr tagged_owner(tagged);
  vips_image_set_int(tagged, "orientation", orientation);
  vips_image_set_string(tagged, "exif-ifd0-Make", "TestCam");
  vips_image_set_string(tagged, "exif-ifd3-GPSLatitudeRef", "N");
  vips_image_set_string(tagged, "exif-ifd3-GPSLatitude", "41/1 1/1 30/1");
  vips_image_set_string(tagged, "exif-ifd3-GPSLongitudeRef", "E");
  vips_image_set_string(tagged, "exif-ifd3-GPSLongitude", "28/1 58/1 12/1");
  const std::string xmp =
      "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
      "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
      "<rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:creator>Jane Private</dc:creator>"
      "</rdf:Description></rdf:RDF></x:xmpmeta>";
  vips_image_set_blob_copy(tagged, "xmp-data", xmp.data(), xmp.size());
  const std::string profile = p3_profile();
  vips_image_set_blob_copy(tagged, "icc-profile-data", profile.data(), profile.size());
  check(vips_jpegsave(tagged, path.c_str(), "Q", 95, "strip", FALSE, nullptr), "jpegsave");
}

void write_alpha_png(const std::string& path, int width, int height) {
  ensure_vips();
  VipsImage* black = nullptr;
  check(vips_black(&black, width, height, "bands", 4, nullptr), "black");
  ImagePtr black_owner(black);
  VipsImage* typed = nullptr;
  check(vips_copy(black, &typed, "interpretation", VIPS_INTERPRETATION_sRGB, nullptr), "copy");
  ImagePtr typed_owner(typed);
  ImagePtr image(vips_image_copy_memory(typed));
  double blue[] = {0, 0, 255, 255};
  check(vips_draw_rect(image.get(), blue, 4, 0, 0, width / 2, height, "fill", TRUE, nullptr), "draw_rect");
  vips_image_set_string(image.get(), "png-comment-0-Author", "Jane Private");
  check(vips_pngsave(image.get(), path.c_str(), "strip", FALSE, nullptr), "pngsave");
}

void write_plain(const std::string& path, int width, int height) {
  ImagePtr image = noise_rgb(width, height);
  check(vips_image_write_to_file(image.get(), path.c_str(), nullptr), "write_to_file");
}

void write_huge_png_header(const std::string& path, std::uint32_t width, std::uint32_t height) {
  auto crc32 = [](const std::string& bytes) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char byte : bytes) {
      crc ^= byte;
      for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
  };
  auto be32 = [](std::uint32_t value) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((value >> (24 - 8 * i)) & 0xFF);
    return out;
  };
  auto chunk = [&](const std::string& type, const std::string& data) {
    return be32(static_cast<std::uint32_t>(data.size())) + type + data + be32(crc32(type + data));
  };
  std::string ihdr = be32(width) + be32(height) + std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB
  std::string png = std::string("\x89PNG\r\n\x1A\n", 8) + chunk("IHDR", ihdr) +
                    chunk("IDAT", std::string("\x78\x9C garbage, not deflate", 24)) + chunk("IEND", "");
  std::ofstream(path, std::ios::binary) << png;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace image_test
