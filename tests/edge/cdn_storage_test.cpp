// The CDN over the storage records (edge/cdn/cdn_routes.h, docs/storage-cdn.md): an image uploaded public
// through the storage API is served at the `url` the upload answered, as variants negotiated by Accept with
// the spec's headers, never with its EXIF; private items, private buckets, deleted items and unknown
// qualities answer 404. Also the whole path on the S3 backend: upload, CDN variant, signed download,
// delete, each against a real S3-compatible server.

#include <doctest/doctest.h>

#include <filesystem>

#include "../native/image_test_images.h"
#include "../native/s3_server.h"
#include "storage_support.h"

using namespace storage_test;

namespace {

constexpr const char* kChrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
constexpr const char* kOldSafari = "image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5";

// A 1200 × 800 JPEG with EXIF orientation 6 (it displays 800 × 1200), a camera make, GPS tags and a private
// XMP creator (tests/native/image_test_images.h).
std::string photo_bytes() {
  testing::TempDir dir;
  const std::string path = dir.path + "/photo.jpg";
  image_test::write_photo_jpeg(path, 1200, 800, 6);
  return image_test::read_file(path);
}

// The path part of a CDN url the upload answered (`{cdn_url}/f/<id>`).
std::string path_of(const std::string& url, const TestEdge& e) {
  REQUIRE(url.rfind(e.url(), 0) == 0);
  return url.substr(e.url().size());
}

bool has(const std::string& bytes, const std::string& needle) {
  return bytes.find(needle) != std::string::npos;
}

}  // namespace

TEST_SUITE("cdn_storage") {
  TEST_CASE("a public upload is served at its url as negotiated variants without its EXIF") {
    StorageEdge e;
    REQUIRE(make_bucket(e, e.acme_token, "site", "public").status == 201);
    const std::string bytes = photo_bytes();
    REQUIRE(has(bytes, "Jane Private"));
    auto up =
        upload_raw(e, e.acme_token, "site", bytes, "filename=photo.jpg&contentType=image/jpeg&isPublic=true");
    REQUIRE(up.status == 201);
    const std::string id = str(up.data(), "id");
    const std::string path = path_of(str(up.data(), "url"), e);
    CHECK(path == "/f/" + id);

    auto avif = e.send("GET", path + "/thumb", "", {{"Accept", kChrome}});
    REQUIRE(avif.status == 200);
    CHECK(avif.header("Content-Type") == "image/avif");
    CHECK(avif.header("X-Image-Format") == "avif");
    CHECK(avif.header("Vary") == "Accept");
    CHECK(avif.header("Cache-Control") == "public, max-age=31536000, immutable");
    CHECK_FALSE(avif.header("ETag").empty());
    CHECK(avif.body.substr(4, 8) == "ftypavif");

    auto webp = e.send("GET", path + "/small", "", {{"Accept", "image/webp,*/*"}});
    REQUIRE(webp.status == 200);
    CHECK(webp.header("Content-Type") == "image/webp");
    CHECK(webp.body.substr(0, 4) == "RIFF");
    CHECK(webp.body.substr(8, 4) == "WEBP");

    auto legacy = e.send("GET", path, "", {{"Accept", kOldSafari}});
    REQUIRE(legacy.status == 200);
    CHECK(legacy.header("Content-Type") == "image/jpeg");
    CHECK(legacy.header("X-Image-Format") == "jpeg");
    CHECK(legacy.body.substr(0, 3) == "\xFF\xD8\xFF");
    // Nothing private of the upload leaves the CDN, in any variant.
    for (const auto* r : {&avif, &webp, &legacy}) {
      CHECK_FALSE(has(r->body, "Jane Private"));
      CHECK_FALSE(has(r->body, "TestCam"));
    }
    // The same representation again: the transport's 304 for its ETag; a byte range of it.
    // (`Connection: close`: cpp-httplib 0.11 reads a 304 without Content-Length until the connection ends.)
    auto again =
        e.send("GET", path + "/thumb", "",
               {{"Accept", kChrome}, {"If-None-Match", avif.header("ETag")}, {"Connection", "close"}});
    CHECK(again.status == 304);
    auto part = e.send("GET", path + "/thumb", "", {{"Accept", kChrome}, {"Range", "bytes=0-9"}});
    CHECK(part.status == 206);
    CHECK(part.body == avif.body.substr(0, 10));
    CHECK(e.send("GET", path + "/huge", "", {{"Accept", kChrome}}).status == 404);
  }

  TEST_CASE("private media, a bucket made private and deleted media answer 404, variants included") {
    StorageEdge e;
    REQUIRE(make_bucket(e, e.acme_token, "site", "public").status == 201);
    REQUIRE(make_bucket(e, e.acme_token, "vault", "private").status == 201);
    const std::string bytes = photo_bytes();
    auto hidden =
        upload_raw(e, e.acme_token, "site", bytes, "filename=a.jpg&contentType=image/jpeg&isPublic=false");
    REQUIRE(hidden.status == 201);
    CHECK(e.send("GET", "/f/" + str(hidden.data(), "id"), "", {{"Accept", kChrome}}).status == 404);
    auto in_private =
        upload_raw(e, e.acme_token, "vault", bytes, "filename=b.jpg&contentType=image/jpeg&isPublic=true");
    REQUIRE(in_private.status == 201);
    CHECK(e.send("GET", "/f/" + str(in_private.data(), "id") + "/thumb", "", {}).status == 404);

    auto shown =
        upload_raw(e, e.acme_token, "site", bytes, "filename=c.jpg&contentType=image/jpeg&isPublic=true");
    REQUIRE(shown.status == 201);
    const std::string path = "/f/" + str(shown.data(), "id") + "/thumb";
    REQUIRE(e.send("GET", path, "", {{"Accept", kChrome}}).status == 200);
    REQUIRE(e.send("GET", path, "", {{"Accept", kChrome}}).status == 200);  // a hit, its lookup kept
    // The variant exists now and its lookup is cached, yet a private bucket stops serving it at once.
    REQUIRE(e.patch("/api/companies/acme/buckets/site", R"({"visibility":"private"})", e.acme_token).status ==
            200);
    CHECK(e.send("GET", path, "", {{"Accept", kChrome}}).status == 404);
    REQUIRE(e.patch("/api/companies/acme/buckets/site", R"({"visibility":"public"})", e.acme_token).status ==
            200);
    CHECK(e.send("GET", path, "", {{"Accept", kChrome}}).status == 200);
    REQUIRE(e.del("/api/companies/acme/buckets/site/media/" + str(shown.data(), "id"), e.acme_token).status ==
            200);
    CHECK(e.send("GET", path, "", {{"Accept", kChrome}}).status == 404);
    CHECK(e.send("GET", "/f/med_doesnotexist", "", {}).status == 404);
  }

  TEST_CASE(
      "on the S3 backend: upload, a CDN variant, the signed download and delete all reach the service") {
    std::string failure;
    auto s3 = test_s3::S3Server::start("blobs", failure);
    REQUIRE_MESSAGE(s3, failure);
    edge::Config c = unthrottled();
    c.storage.backend = "s3";
    c.storage.s3_endpoint = s3->endpoint();
    c.storage.s3_bucket = "blobs";
    c.storage.s3_access_key = test_s3::S3Server::kAccessKey;
    c.storage.s3_secret_key = test_s3::S3Server::kSecretKey;
    StorageEdge e(c);
    REQUIRE(make_bucket(e, e.acme_token, "site", "public").status == 201);
    const std::string bytes = photo_bytes();
    auto up =
        upload_raw(e, e.acme_token, "site", bytes, "filename=p.jpg&contentType=image/jpeg&isPublic=true");
    REQUIRE(up.status == 201);
    const std::string id = str(up.data(), "id");
    // The object is in the service's bucket (s3rver keeps one folder per object key).
    bool stored = false;
    for (auto& entry : std::filesystem::recursive_directory_iterator(s3->directory()))
      if (entry.path().string().find(id) != std::string::npos) stored = true;
    CHECK(stored);

    auto variant = e.send("GET", "/f/" + id + "/thumb", "", {{"Accept", "image/webp"}});
    REQUIRE(variant.status == 200);
    CHECK(variant.header("Content-Type") == "image/webp");
    auto link = e.get("/api/companies/acme/buckets/site/media/" + id + "/download", e.acme_token);
    REQUIRE(link.status == 200);
    const std::string url = str(link.data(), "url");
    auto file = e.get(url.substr(url.find("/api/")));
    REQUIRE(file.status == 200);
    CHECK(file.body == bytes);

    REQUIRE(e.del("/api/companies/acme/buckets/site/media/" + id, e.acme_token).status == 200);
    bool left = false;
    for (auto& entry : std::filesystem::recursive_directory_iterator(s3->directory()))
      if (entry.is_regular_file() && entry.path().string().find(id) != std::string::npos) left = true;
    CHECK_FALSE(left);
    CHECK(e.send("GET", "/f/" + id + "/thumb", "", {{"Accept", "image/webp"}}).status == 404);
  }
}
