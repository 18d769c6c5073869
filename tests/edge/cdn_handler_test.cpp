// The CDN request logic (edge/cdn/cdn_handler.h, docs/storage-cdn.md) against a lookup: variants by
// quality and Accept with their headers, media served as uploaded, 404 for private, unknown and bad
// qualities, 422 for images the CDN refuses.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "edge/cdn/cdn_handler.h"
#include "tests/edge/test_edge.h"
#include "tests/native/image_test_images.h"

using edge::cdn::CdnSource;

namespace {

std::string header(const edge::Response& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "<absent>";
}

struct Cdn {
  testing::TempDir dir;
  edge::Config config;
  std::unique_ptr<edge::cdn::VariantCache> cache;
  std::map<std::string, CdnSource, std::less<>> media;
  edge::cdn::CdnLookup lookup = [this](std::string_view id) -> std::optional<CdnSource> {
    auto it = media.find(id);
    if (it == media.end()) return std::nullopt;
    return it->second;
  };

  Cdn() {
    config.data_dir = dir.path;
    config.storage.variant_dir = dir.path + "/variants";
    config.storage.max_image_pixels = 1'000'000;
    cache = std::make_unique<edge::cdn::VariantCache>(config);
  }
  void add(std::string id, bool is_public, std::string content_type, std::string path) {
    media[std::move(id)] = CdnSource{is_public, std::move(content_type),
                                     [path] { return core::Result<std::string>(path); }, nullptr};
  }
  edge::Response get(std::string_view id, std::optional<std::string_view> quality, std::string_view accept) {
    return edge::cdn::cdn_response(*cache, lookup, id, quality, accept);
  }
  std::optional<edge::Response> quick(std::string id, std::string quality, std::string accept) {
    edge::Request request;
    request.method = "GET";
    request.params["id"] = std::move(id);
    if (!quality.empty()) request.params["quality"] = std::move(quality);
    if (!accept.empty()) request.headers["accept"] = std::move(accept);
    return edge::cdn::cdn_quick_response(*cache, lookup, request);
  }
};

constexpr std::string_view kChrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

}  // namespace

TEST_SUITE("cdn_handler") {
  TEST_CASE("a public photo: the quality's width, the Accept class's format, the CDN headers") {
    Cdn cdn;
    const std::string photo = cdn.dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(photo, 400, 300, 6);
    cdn.add("med_photo", true, "image/jpeg", photo);

    struct Case {
      std::string_view accept;
      const char* file;
      const char* content_type;
      const char* format;
    };
    for (const Case& c :
         {Case{kChrome, "thumb.avif", "image/avif", "avif"},
          Case{"image/webp,*/*", "thumb.webp", "image/webp", "webp"},
          Case{"*/*", "thumb.jpeg", "image/jpeg", "jpeg"}, Case{"", "thumb.jpeg", "image/jpeg", "jpeg"},
          Case{"image/avif;q=0,image/webp;q=0", "thumb.jpeg", "image/jpeg", "jpeg"}}) {
      CAPTURE(c.accept);
      edge::Response response = cdn.get("med_photo", "thumb", c.accept);
      CHECK(response.status == 200);
      CHECK(response.content_type == c.content_type);
      CHECK(response.file == cdn.config.storage.variant_dir + "/med_photo/" + c.file);
      CHECK(header(response, "Cache-Control") == "public, max-age=31536000, immutable");
      CHECK(header(response, "Vary") == "Accept");
      CHECK(header(response, "X-Image-Format") == c.format);
      CHECK(header(response, "X-Content-Type-Options") == "nosniff");
      CHECK(response.body.empty());
      CHECK(image_test::read_file(response.file).find("TestCam") == std::string::npos);
    }
  }

  TEST_CASE("the original (no quality) is a stripped, full-size variant too") {
    Cdn cdn;
    const std::string photo = cdn.dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(photo, 400, 300, 6);
    cdn.add("med_photo", true, "image/jpeg", photo);
    edge::Response response = cdn.get("med_photo", std::nullopt, "*/*");
    CHECK(response.status == 200);
    CHECK(response.content_type == "image/jpeg");
    CHECK(response.file == cdn.config.storage.variant_dir + "/med_photo/original.jpeg");
    CHECK(header(response, "X-Image-Format") == "jpeg");
    const std::string bytes = image_test::read_file(response.file);
    CHECK(bytes.find("TestCam") == std::string::npos);
    CHECK(bytes.find("Jane Private") == std::string::npos);
    CHECK(response.file != photo);
  }

  TEST_CASE("a PNG with alpha: legacy is PNG") {
    Cdn cdn;
    const std::string logo = cdn.dir.path + "/logo.png";
    image_test::write_alpha_png(logo, 100, 50);
    cdn.add("med_logo", true, "image/png", logo);
    edge::Response response = cdn.get("med_logo", "small", "image/png,image/*;q=0.8,*/*;q=0.5");
    CHECK(response.status == 200);
    CHECK(response.content_type == "image/png");
    CHECK(header(response, "X-Image-Format") == "png");
  }

  TEST_CASE("other media are served as uploaded, with no variants") {
    Cdn cdn;
    const std::string pdf = cdn.dir.path + "/report.pdf";
    std::ofstream(pdf) << "%PDF-1.4 not really";
    cdn.add("med_pdf", true, "application/pdf", pdf);
    const std::string svg = cdn.dir.path + "/drawing.svg";
    std::ofstream(svg) << "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>";
    cdn.add("med_svg", true, "image/svg+xml", svg);

    edge::Response response = cdn.get("med_pdf", std::nullopt, kChrome);
    CHECK(response.status == 200);
    CHECK(response.content_type == "application/pdf");
    CHECK(response.file == pdf);
    CHECK(header(response, "Cache-Control") == "public, max-age=31536000, immutable");
    CHECK(header(response, "X-Content-Type-Options") == "nosniff");
    CHECK(header(response, "Vary") == "<absent>");
    CHECK(header(response, "X-Image-Format") == "<absent>");

    edge::Response drawing = cdn.get("med_svg", std::nullopt, kChrome);
    CHECK(drawing.status == 200);
    CHECK(drawing.content_type == "image/svg+xml");
    CHECK(drawing.file == svg);
    CHECK(header(drawing, "Content-Security-Policy").starts_with("sandbox;"));

    CHECK(cdn.get("med_pdf", "thumb", kChrome).status == 404);
    CHECK(cdn.get("med_svg", "thumb", kChrome).status == 404);
    CHECK_FALSE(std::filesystem::exists(cdn.config.storage.variant_dir));
  }

  TEST_CASE("private, unknown and bad qualities: 404 in the platform envelope, nothing made") {
    Cdn cdn;
    const std::string photo = cdn.dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(photo, 40, 30, 1);
    cdn.add("med_private", false, "image/jpeg", photo);
    cdn.add("med_photo", true, "image/jpeg", photo);
    for (auto [id, quality] :
         std::initializer_list<std::pair<std::string_view, std::optional<std::string_view>>>{
             {"med_private", std::nullopt},
             {"med_private", "thumb"},
             {"med_unknown", std::nullopt},
             {"med_photo", "huge"},
             {"med_photo", "original"},
             {"med_photo", "THUMB"}}) {
      CAPTURE(id);
      CAPTURE(quality.value_or("(none)"));
      edge::Response response = cdn.get(id, quality, kChrome);
      CHECK(response.status == 404);
      CHECK(response.body == R"({"data":null,"error":"Not found"})");
      CHECK(response.file.empty());
    }
    CHECK_FALSE(std::filesystem::exists(cdn.config.storage.variant_dir));
  }

  TEST_CASE("images the CDN refuses: 422") {
    Cdn cdn;
    const std::string big = cdn.dir.path + "/big.png";
    image_test::write_huge_png_header(big, 20000, 20000);
    cdn.add("med_big", true, "image/png", big);
    edge::Response too_large = cdn.get("med_big", "thumb", kChrome);
    CHECK(too_large.status == 422);
    CHECK(too_large.body ==
          R"({"data":null,"error":"The image has 400000000 pixels; the limit is 1000000"})");

    const std::string broken = cdn.dir.path + "/broken.jpg";
    std::ofstream(broken) << "not a jpeg";
    cdn.add("med_broken", true, "image/jpeg", broken);
    edge::Response unreadable = cdn.get("med_broken", std::nullopt, "*/*");
    CHECK(unreadable.status == 422);
    CHECK(unreadable.body == R"({"data":null,"error":"The image cannot be processed"})");
  }

  TEST_CASE("a routed request: id and quality from the route, Accept from the headers") {
    Cdn cdn;
    const std::string photo = cdn.dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(photo, 400, 300, 1);
    cdn.add("med_photo", true, "image/jpeg", photo);
    edge::Request request;
    request.method = "GET";
    request.params["id"] = "med_photo";
    request.params["quality"] = "medium";
    request.headers["accept"] = "image/webp,*/*";
    edge::Response response = edge::cdn::cdn_response(*cdn.cache, cdn.lookup, request);
    CHECK(response.status == 200);
    CHECK(response.content_type == "image/webp");
    CHECK(response.file == cdn.config.storage.variant_dir + "/med_photo/medium.webp");
    request.params.erase("quality");
    request.headers.erase("accept");
    edge::Response original = edge::cdn::cdn_response(*cdn.cache, cdn.lookup, request);
    CHECK(original.status == 200);
    CHECK(original.file == cdn.config.storage.variant_dir + "/med_photo/original.jpeg");
  }

  TEST_CASE("the quick answer (I/O thread): 404s and hits only; a variant to make is left to cdn_response") {
    Cdn cdn;
    const std::string photo = cdn.dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(photo, 400, 300, 1);
    int asked = 0;
    cdn.media["med_photo"] = CdnSource{true, "image/jpeg",
                                       [&] {
                                         ++asked;
                                         return core::Result<std::string>(photo);
                                       },
                                       nullptr};
    cdn.add("med_private", false, "image/jpeg", photo);

    for (auto [id, quality] : std::initializer_list<std::pair<const char*, const char*>>{
             {"med_private", ""}, {"med_unknown", "thumb"}, {"med_photo", "huge"}, {"../med_photo", ""}}) {
      CAPTURE(id);
      std::optional<edge::Response> refused = cdn.quick(id, quality, "*/*");
      REQUIRE(refused.has_value());
      CHECK(refused->status == 404);
      CHECK(refused->body == R"({"data":null,"error":"Not found"})");
    }

    // A miss: no answer, nothing made, the source not asked for.
    CHECK_FALSE(cdn.quick("med_photo", "small", "image/webp").has_value());
    CHECK(asked == 0);
    CHECK_FALSE(std::filesystem::exists(cdn.config.storage.variant_dir));

    // Once made, the quick answer is exactly cdn_response's, for that class only.
    edge::Response made = cdn.get("med_photo", "small", "image/webp");
    REQUIRE(made.status == 200);
    std::optional<edge::Response> hit = cdn.quick("med_photo", "small", "image/webp,*/*");
    REQUIRE(hit.has_value());
    CHECK(hit->status == 200);
    CHECK(hit->file == made.file);
    CHECK(hit->opened != nullptr);  // opened once: the transport sends this descriptor
    CHECK(hit->content_type == "image/webp");
    CHECK(hit->headers == made.headers);
    CHECK_FALSE(cdn.quick("med_photo", "small", "*/*").has_value());  // legacy: not made yet
    edge::Response legacy = cdn.get("med_photo", "small", "*/*");
    std::optional<edge::Response> legacy_hit = cdn.quick("med_photo", "small", "");
    REQUIRE(legacy_hit.has_value());
    CHECK(legacy_hit->file == legacy.file);
    CHECK(legacy_hit->content_type == "image/jpeg");
    CHECK(header(*legacy_hit, "X-Image-Format") == "jpeg");
    CHECK(asked == 2);

    // Media served as uploaded: answered when the file is present, left to cdn_response otherwise.
    const std::string pdf = cdn.dir.path + "/report.pdf";
    std::ofstream(pdf) << "%PDF-1.4 not really";
    CdnSource remote{true, "application/pdf", [pdf] { return core::Result<std::string>(pdf); }, nullptr};
    cdn.media["med_remote"] = remote;
    CHECK_FALSE(cdn.quick("med_remote", "", "*/*").has_value());
    remote.present_file = [pdf] { return std::optional<std::string>(pdf); };
    cdn.media["med_local"] = remote;
    std::optional<edge::Response> local = cdn.quick("med_local", "", "*/*");
    REQUIRE(local.has_value());
    CHECK(local->status == 200);
    CHECK(local->file == pdf);
    CHECK(local->content_type == "application/pdf");
    CHECK(local->headers == cdn.get("med_local", std::nullopt, "*/*").headers);
    std::optional<edge::Response> no_variants = cdn.quick("med_local", "thumb", "*/*");
    REQUIRE(no_variants.has_value());
    CHECK(no_variants->status == 404);
  }
}
