// The CDN's variant cache (edge/cdn/variant_cache.h, docs/storage-cdn.md): files per (item, quality,
// class) in the item's variant folder, written atomically, made once under concurrent first requests.

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "edge/cdn/variant_cache.h"
#include "edge/storage/variant_folder.h"
#include "tests/edge/test_edge.h"
#include "tests/native/image_test_images.h"

using core::cdn::AcceptClass;
using core::cdn::ImageFormat;
using edge::cdn::SourceFile;
using edge::cdn::VariantCache;

namespace {

edge::Config config_in(const testing::TempDir& dir) {
  edge::Config config;
  config.data_dir = dir.path;
  config.storage.variant_dir = dir.path + "/variants";
  return config;
}

SourceFile file_at(std::string path) {
  return [path] { return core::Result<std::string>(path); };
}

std::vector<std::string> folder_entries(const std::string& folder) {
  std::vector<std::string> names;
  if (!std::filesystem::exists(folder)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

const core::cdn::Quality kThumb = *core::cdn::quality_named("thumb");

}  // namespace

TEST_SUITE("cdn_variant_cache") {
  TEST_CASE("a variant is made with libvips on the first request, then served from its file") {
    testing::TempDir dir;
    edge::Config config = config_in(dir);
    const std::string source = dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(source, 400, 300, 6);

    std::atomic<int> made{0};
    edge::cdn::VariantMaker libvips = edge::cdn::libvips_variant_maker(config.storage.max_image_pixels);
    VariantCache cache(config, [&](const std::string& from, const std::string& to,
                                   const core::cdn::Quality& q, AcceptClass c) {
      ++made;
      return libvips(from, to, q, c);
    });
    int asked = 0;
    SourceFile counted = [&] {
      ++asked;
      return core::Result<std::string>(source);
    };

    auto first = cache.get("med_abc-DEF_123", counted, kThumb, AcceptClass::avif);
    REQUIRE(first.ok());
    const std::string folder = edge::storage::variant_folder(config, "med_abc-DEF_123");
    CHECK(first->path == folder + "/thumb.avif");
    CHECK(first->format == ImageFormat::avif);
    const std::string bytes = image_test::read_file(first->path);
    CHECK(core::cdn::sniff_format(std::string_view(bytes).substr(0, 64)) == ImageFormat::avif);
    CHECK(bytes.find("TestCam") == std::string::npos);

    auto again = cache.get("med_abc-DEF_123", counted, kThumb, AcceptClass::avif);
    REQUIRE(again.ok());
    CHECK(again->path == first->path);
    CHECK(made == 1);
    CHECK(asked == 1);  // a hit never asks for the source (with S3 that would be a download)

    // Legacy of a JPEG photo is JPEG; a hit knows it from the file's name.
    auto legacy = cache.get("med_abc-DEF_123", counted, kThumb, AcceptClass::legacy);
    REQUIRE(legacy.ok());
    CHECK(legacy->path == folder + "/thumb.jpeg");
    CHECK(legacy->format == ImageFormat::jpeg);
    auto legacy_hit = cache.get("med_abc-DEF_123", counted, kThumb, AcceptClass::legacy);
    REQUIRE(legacy_hit.ok());
    CHECK(legacy_hit->format == ImageFormat::jpeg);
    CHECK(legacy_hit->path == legacy->path);
    auto original = cache.get("med_abc-DEF_123", counted, core::cdn::kOriginal, AcceptClass::webp);
    REQUIRE(original.ok());
    CHECK(original->path == folder + "/original.webp");
    CHECK(original->format == ImageFormat::webp);
    CHECK(made == 3);
    // Only the variants, no temporary files.
    CHECK(folder_entries(folder) == std::vector<std::string>{"original.webp", "thumb.avif", "thumb.jpeg"});
    // find() answers hits only, and never makes anything.
    auto found = cache.find("med_abc-DEF_123", kThumb, AcceptClass::legacy);
    REQUIRE(found.has_value());
    CHECK(found->path == folder + "/thumb.jpeg");
    CHECK(found->format == ImageFormat::jpeg);
    REQUIRE(found->opened != nullptr);
    int fd = found->opened->release();
    CHECK(fd >= 0);
    ::close(fd);
    CHECK_FALSE(
        cache.find("med_abc-DEF_123", *core::cdn::quality_named("large"), AcceptClass::avif).has_value());
    CHECK_FALSE(cache.find("med_other", kThumb, AcceptClass::avif).has_value());
    CHECK_FALSE(cache.find("../med_abc-DEF_123", kThumb, AcceptClass::avif).has_value());
    CHECK(made == 3);

    // drop_variants (media deleted) takes them all; a new request makes them again.
    edge::storage::drop_variants(config, "med_abc-DEF_123");
    CHECK_FALSE(std::filesystem::exists(folder));
    REQUIRE(cache.get("med_abc-DEF_123", counted, kThumb, AcceptClass::avif).ok());
    CHECK(made == 4);
  }

  TEST_CASE("legacy of an image with alpha is PNG") {
    testing::TempDir dir;
    edge::Config config = config_in(dir);
    const std::string source = dir.path + "/logo.png";
    image_test::write_alpha_png(source, 300, 100);
    VariantCache cache(config);
    auto legacy = cache.get("med_logo", file_at(source), kThumb, AcceptClass::legacy);
    REQUIRE(legacy.ok());
    CHECK(legacy->format == ImageFormat::png);
    CHECK(legacy->path == edge::storage::variant_folder(config, "med_logo") + "/thumb.png");
    CHECK(image_test::read_file(legacy->path).substr(0, 4) == "\x89PNG");
    auto hit = cache.find("med_logo", kThumb, AcceptClass::legacy);
    REQUIRE(hit.has_value());
    CHECK(hit->format == ImageFormat::png);
  }

  TEST_CASE("concurrent first requests: one maker, every caller gets its file") {
    testing::TempDir dir;
    edge::Config config = config_in(dir);
    constexpr int kCallers = 16;
    const std::string expected = edge::storage::variant_folder(config, "med_race") + "/thumb.webp";
    std::atomic<int> made{0};
    VariantCache* cache_ptr = nullptr;
    VariantCache cache(config,
                       [&](const std::string&, const std::string& to, const core::cdn::Quality&,
                           AcceptClass) -> core::Result<ImageFormat> {
                         ++made;
                         // Finish only once every other caller is waiting for this maker (or after 10 s, and
                         // then the assertions below fail).
                         const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                         while (cache_ptr->waiting("med_race", kThumb, AcceptClass::webp) < kCallers - 1 &&
                                std::chrono::steady_clock::now() < give_up) {
                           std::this_thread::yield();
                         }
                         std::ofstream(to, std::ios::binary) << std::string("RIFF\x10\0\0\0WEBPVP8 ", 16);
                         return ImageFormat::webp;
                       });
    cache_ptr = &cache;

    std::vector<std::string> paths(kCallers);
    std::vector<std::thread> threads;
    for (int i = 0; i < kCallers; ++i) {
      threads.emplace_back([&, i] {
        auto variant = cache.get("med_race", file_at("/unused"), kThumb, AcceptClass::webp);
        paths[i] = variant.ok() ? variant->path : "error: " + variant.error().code;
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK(made == 1);
    for (const std::string& path : paths) CHECK(path == expected);
    CHECK(cache.waiting("med_race", kThumb, AcceptClass::webp) == 0);
    CHECK(folder_entries(edge::storage::variant_folder(config, "med_race")) ==
          std::vector<std::string>{"thumb.webp"});
  }

  TEST_CASE("a failed maker leaves nothing behind, and the next request tries again") {
    testing::TempDir dir;
    edge::Config config = config_in(dir);
    std::atomic<int> made{0};
    std::atomic<bool> fail{true};
    VariantCache cache(config,
                       [&](const std::string&, const std::string& to, const core::cdn::Quality&,
                           AcceptClass) -> core::Result<ImageFormat> {
                         ++made;
                         std::ofstream(to) << "partial";
                         if (fail) return core::make_error("image_error", "Decoding the image failed");
                         std::ofstream(to, std::ios::binary) << std::string("\xFF\xD8\xFF\xE0", 4);
                         return ImageFormat::jpeg;
                       });
    auto failed = cache.get("med_bad", file_at("/unused"), kThumb, AcceptClass::legacy);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().code == "image_error");
    CHECK(folder_entries(edge::storage::variant_folder(config, "med_bad")).empty());
    fail = false;
    auto retried = cache.get("med_bad", file_at("/unused"), kThumb, AcceptClass::legacy);
    REQUIRE(retried.ok());
    CHECK(retried->format == ImageFormat::jpeg);
    CHECK(made == 2);
  }

  TEST_CASE("a maker that writes a format its class cannot have is refused, so no unreachable file stays") {
    testing::TempDir dir;
    edge::Config config = config_in(dir);
    VariantCache cache(config,
                       [&](const std::string&, const std::string& to, const core::cdn::Quality&,
                           AcceptClass) -> core::Result<ImageFormat> {
                         std::ofstream(to, std::ios::binary) << std::string("\xFF\xD8\xFF\xE0", 4);
                         return ImageFormat::jpeg;
                       });
    auto wrong = cache.get("med_wrong", file_at("/unused"), kThumb, AcceptClass::avif);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().code == "image_error");
    CHECK(folder_entries(edge::storage::variant_folder(config, "med_wrong")).empty());
  }

  TEST_CASE("errors of the source and of the image") {
    testing::TempDir dir;
    edge::Config config = config_in(dir);
    config.storage.max_image_pixels = 1000;
    VariantCache cache(config);
    auto missing = cache.get(
        "med_gone", [] { return core::Result<std::string>(core::make_error("not_found", "No such blob")); },
        kThumb, AcceptClass::avif);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == "not_found");

    const std::string source = dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(source, 40, 30, 1);  // 1200 pixels
    auto big = cache.get("med_big", file_at(source), kThumb, AcceptClass::avif);
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().code == "image_too_large");
    CHECK(folder_entries(edge::storage::variant_folder(config, "med_big")).empty());
  }

  TEST_CASE("media ids that cannot name a folder are not found, and nothing is made") {
    testing::TempDir dir;
    edge::Config config = config_in(dir);
    int made = 0;
    VariantCache cache(config,
                       [&](const std::string&, const std::string&, const core::cdn::Quality&,
                           AcceptClass) -> core::Result<ImageFormat> {
                         ++made;
                         return ImageFormat::jpeg;
                       });
    const std::vector<std::string> ids = {
        "", "..", ".", "a/b", "../etc", "med abc", "med%2F", "médias", std::string(129, 'a')};
    for (const std::string& id : ids) {
      CAPTURE(id);
      auto variant = cache.get(id, file_at("/unused"), kThumb, AcceptClass::legacy);
      REQUIRE_FALSE(variant.ok());
      CHECK(variant.error().code == "not_found");
    }
    CHECK(made == 0);
    CHECK_FALSE(std::filesystem::exists(config.storage.variant_dir));
  }
}
