// cdn_variant_bench: the CDN's variant generation time per megapixel of source (docs/performance.md, "CDN
// image variants"). A photo-like JPEG source (Perlin noise per band plus fine grain, quality 90, with EXIF
// orientation 6) at several sizes; every named quality in every output format, each made `--runs` times by
// native::image::make_variant exactly as the variant cache does on a miss (probe, shrink on load, rotate,
// strip, encode). Prints the median wall and process CPU time per variant and per source megapixel, and
// beside it the CPU time of the bare libvips pipeline an image proxy such as imgproxy runs for the same
// output (vips_thumbnail, then save with `strip`, which also drops the ICC profile): the anchor for what
// our header probe, pixel check and metadata handling cost on top.
//
//   cdn_variant_bench [--runs N] [--threads N] [--sizes 1600x1200,4000x3000]

#include <vips/vips.h>

#include <time.h>
#include <algorithm>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/cdn/image_format.h"
#include "core/cdn/quality.h"
#include "native/image/image.h"

namespace {

using core::cdn::ImageFormat;

void check(int status, const char* what) {
  if (status != 0) {
    std::fprintf(stderr, "%s: %s\n", what, vips_error_buffer());
    std::exit(1);
  }
}

// Smooth structure (Perlin noise, a different field per band) with fine grain on top, like a photo: flat
// colour compresses unrealistically well and pure noise unrealistically badly.
void write_source(const std::string& path, int width, int height) {
  VipsImage* bands[3];
  for (int i = 0; i < 3; ++i) {
    VipsImage* perlin = nullptr;
    check(vips_perlin(&perlin, width, height, "cell_size", 96 + 32 * i, "seed", 7 + i, nullptr), "perlin");
    VipsImage* grain = nullptr;
    check(vips_gaussnoise(&grain, width, height, "mean", 0.0, "sigma", 6.0, "seed", 11 + i, nullptr),
          "grain");
    VipsImage* scaled = nullptr;
    check(vips_linear1(perlin, &scaled, 110.0, 128.0, nullptr), "linear");
    check(vips_add(scaled, grain, &bands[i], nullptr), "add");
    g_object_unref(perlin);
    g_object_unref(grain);
    g_object_unref(scaled);
  }
  VipsImage* joined = nullptr;
  check(vips_bandjoin(bands, &joined, 3, nullptr), "bandjoin");
  for (VipsImage* band : bands) g_object_unref(band);
  VipsImage* rgb = nullptr;
  check(vips_cast_uchar(joined, &rgb, nullptr), "cast");
  VipsImage* tagged = nullptr;
  check(vips_copy(rgb, &tagged, "interpretation", VIPS_INTERPRETATION_sRGB, nullptr), "copy");
  vips_image_set_int(tagged, "orientation", 6);
  vips_image_set_string(tagged, "exif-ifd0-Make", "BenchCam");
  check(vips_jpegsave(tagged, path.c_str(), "Q", 90, "strip", FALSE, nullptr), "jpegsave");
  g_object_unref(joined);
  g_object_unref(rgb);
  g_object_unref(tagged);
}

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// vips_thumbnail and a stripping save, nothing else.
void bare_variant(const std::string& source, const std::string& dest,
                  const native::image::VariantSpec& spec) {
  VipsImage* out = nullptr;
  const int width = spec.max_width > 0 ? spec.max_width : VIPS_MAX_COORD;
  check(
      vips_thumbnail(source.c_str(), &out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, nullptr),
      "thumbnail");
  int status = 0;
  switch (spec.format) {
    case ImageFormat::jpeg:
      status = vips_jpegsave(out, dest.c_str(), "Q", spec.quality, "optimize_coding", TRUE, "strip", TRUE,
                             nullptr);
      break;
    case ImageFormat::webp:
      status = vips_webpsave(out, dest.c_str(), "Q", spec.quality, "effort", 4, "strip", TRUE, nullptr);
      break;
    default:
      status = vips_heifsave(out, dest.c_str(), "Q", spec.quality, "compression",
                             VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "effort", 3, "bitdepth", 8, "strip", TRUE,
                             nullptr);
      break;
  }
  g_object_unref(out);
  check(status, "save");
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  int threads = 0;
  std::string sizes = "1600x1200,4000x3000";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--threads") threads = std::atoi(argv[i + 1]);
    if (flag == "--sizes") sizes = argv[i + 1];
  }
  if (!native::image::init(native::image::Settings{.threads = threads})) {
    std::fprintf(stderr, "libvips did not start\n");
    return 1;
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "cdn_variant_bench";
  std::filesystem::create_directories(dir);

  std::vector<core::cdn::Quality> qualities(core::cdn::kQualities.begin(), core::cdn::kQualities.end());
  qualities.push_back(core::cdn::kOriginal);
  std::printf("libvips %s, threads %d, runs %d (median)\n", vips_version_string(), vips_concurrency_get(),
              runs);
  std::printf("%-11s %-9s %-5s %11s %9s %9s %9s %9s %9s\n", "source", "quality", "fmt", "output", "wall ms",
              "cpu ms", "cpu ms/MP", "bare cpu", "size kB");

  std::size_t start = 0;
  while (start < sizes.size()) {
    std::size_t comma = sizes.find(',', start);
    std::string size = sizes.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? sizes.size() : comma + 1;
    int width = 0, height = 0;
    if (std::sscanf(size.c_str(), "%dx%d", &width, &height) != 2) continue;
    const std::string source = (dir / ("source-" + size + ".jpg")).string();
    write_source(source, width, height);
    const double megapixels = width * static_cast<double>(height) / 1e6;
    for (const core::cdn::Quality& quality : qualities) {
      for (ImageFormat format : {ImageFormat::jpeg, ImageFormat::webp, ImageFormat::avif}) {
        native::image::VariantSpec spec;
        spec.max_width = quality.max_width;
        spec.quality = core::cdn::encoder_quality(quality, format);
        spec.format = format;
        const std::string dest = (dir / "variant").string();
        std::vector<double> wall, cpu, bare;
        native::image::ImageInfo made;
        for (int run = 0; run < runs; ++run) {
          const auto begin = std::chrono::steady_clock::now();
          const double cpu_begin = cpu_ms();
          auto result = native::image::make_variant(source, dest, spec);
          cpu.push_back(cpu_ms() - cpu_begin);
          wall.push_back(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
          if (!result) {
            std::fprintf(stderr, "%s\n", result.error().message.c_str());
            return 1;
          }
          made = *result;
        }
        const double size_kb = std::filesystem::file_size(dest) / 1000.0;
        for (int run = 0; run < runs; ++run) {
          const double cpu_begin = cpu_ms();
          bare_variant(source, dest + "-bare", spec);
          bare.push_back(cpu_ms() - cpu_begin);
        }
        const double c = median(cpu);
        std::printf("%-11s %-9s %-5s %5dx%-5d %9.1f %9.1f %9.1f %9.1f %9.1f\n", size.c_str(),
                    std::string(quality.name).c_str(), std::string(core::cdn::format_name(format)).c_str(),
                    made.width, made.height, median(wall), c, c / megapixels, median(bare), size_kb);
        std::fflush(stdout);
      }
    }
  }
  std::filesystem::remove_all(dir);
  return 0;
}
