// The CDN's answers over the real HTTP transport (edge/http/http_server.h) with an HTTP client, the way
// curl sees them: negotiated variants with their headers, the transport's ETag, 304 and Range on top,
// and one variant made once under a burst of concurrent first requests. The routes are the CDN's own
// (`/f/{id}`, `/f/{id}/{quality}`) over edge::cdn::cdn_response, with a lookup instead of the storage
// records (docs/storage-cdn.md).

#include <doctest/doctest.h>
#include <httplib.h>

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "edge/cdn/cdn_handler.h"
#include "edge/http/http_server.h"
#include "edge/http/router.h"
#include "tests/edge/test_edge.h"
#include "tests/native/image_test_images.h"

namespace {

class CdnService : public edge::HttpService {
 public:
  explicit CdnService(edge::Handler handler) {
    router_.add("GET", "/f/{id}", handler);
    router_.add("GET", "/f/{id}/{quality}", handler);
  }
  edge::RequestPlan plan(edge::Request& head) override {
    edge::RequestPlan plan;
    edge::Router::Match match = router_.match(head);
    if (match.kind != edge::Router::Match::found) {
      plan.answer = refuse(head, 404, "not found");
      return plan;
    }
    plan.handler = match.handler;
    return plan;
  }
  edge::Response handle(edge::Request& req, const edge::RequestPlan& plan) override {
    return (*plan.handler)(req);
  }
  edge::Response refuse(const edge::Request&, int status, std::string_view reason) override {
    edge::Response response;
    response.status = status;
    response.content_type = "text/plain";
    response.body = std::string(reason);
    return response;
  }

 private:
  edge::Router router_;
};

struct CdnServer {
  testing::TempDir dir;
  edge::Config config;
  std::atomic<int> made{0};
  std::unique_ptr<edge::cdn::VariantCache> cache;
  std::map<std::string, edge::cdn::CdnSource, std::less<>> media;
  std::unique_ptr<CdnService> service;
  std::unique_ptr<edge::HttpServer> server;
  std::thread thread;
  int port = 0;

  CdnServer() {
    config.data_dir = dir.path;
    config.storage.variant_dir = dir.path + "/variants";
    edge::cdn::VariantMaker libvips = edge::cdn::libvips_variant_maker(config.storage.max_image_pixels);
    cache = std::make_unique<edge::cdn::VariantCache>(
        config, [this, libvips](const std::string& from, const std::string& to,
                                const core::cdn::Quality& quality, core::cdn::AcceptClass accept_class) {
          ++made;
          return libvips(from, to, quality, accept_class);
        });
    const std::string photo = dir.path + "/photo.jpg";
    image_test::write_photo_jpeg(photo, 1200, 900, 6);
    media["med_photo"] = {true, "image/jpeg", [photo] { return core::Result<std::string>(photo); }, nullptr};
    media["med_private"] = {false, "image/jpeg", [photo] { return core::Result<std::string>(photo); },
                            nullptr};
    service = std::make_unique<CdnService>([this](edge::Request& req) {
      return edge::cdn::cdn_response(
          *cache,
          [this](std::string_view id) -> std::optional<edge::cdn::CdnSource> {
            auto it = media.find(id);
            if (it == media.end()) return std::nullopt;
            return it->second;
          },
          req);
    });
    edge::HttpServerOptions options;
    options.port = 0;
    options.io_threads = 1;
    options.worker_threads = 32;
    server = std::make_unique<edge::HttpServer>(options, *service);
    auto bound = server->bind();
    REQUIRE(bound.ok());
    port = *bound;
    thread = std::thread([this] { server->serve(); });
  }
  ~CdnServer() {
    server->stop();
    thread.join();
  }
  httplib::Result get(const std::string& path, httplib::Headers headers = {}) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(60, 0);
    return client.Get(path, headers);
  }
};

constexpr const char* kChrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

}  // namespace

TEST_SUITE("cdn_http") {
  TEST_CASE("variants by Accept, with ETag, 304 and Range from the transport") {
    CdnServer cdn;
    auto avif = cdn.get("/f/med_photo/thumb", {{"Accept", kChrome}});
    REQUIRE(avif);
    CHECK(avif->status == 200);
    CHECK(avif->get_header_value("Content-Type") == "image/avif");
    CHECK(avif->get_header_value("Vary") == "Accept");
    CHECK(avif->get_header_value("X-Image-Format") == "avif");
    CHECK(avif->get_header_value("Cache-Control") == "public, max-age=31536000, immutable");
    CHECK(avif->get_header_value("Accept-Ranges") == "bytes");
    CHECK(core::cdn::sniff_format(std::string_view(avif->body).substr(0, 64)) ==
          core::cdn::ImageFormat::avif);
    CHECK(avif->body.find("TestCam") == std::string::npos);
    const std::string avif_etag = avif->get_header_value("ETag");
    REQUIRE_FALSE(avif_etag.empty());

    // curl's Accept: the legacy variant, a different representation with a different validator.
    auto jpeg = cdn.get("/f/med_photo/thumb", {{"Accept", "*/*"}});
    REQUIRE(jpeg);
    CHECK(jpeg->status == 200);
    CHECK(jpeg->get_header_value("Content-Type") == "image/jpeg");
    CHECK(jpeg->get_header_value("X-Image-Format") == "jpeg");
    CHECK(jpeg->body.substr(0, 3) == "\xFF\xD8\xFF");
    CHECK(jpeg->get_header_value("ETag") != avif_etag);

    // Revalidation: 304 keeping the headers a cache needs.
    auto not_modified = cdn.get("/f/med_photo/thumb", {{"Accept", kChrome}, {"If-None-Match", avif_etag}});
    REQUIRE(not_modified);
    CHECK(not_modified->status == 304);
    CHECK(not_modified->body.empty());
    CHECK(not_modified->get_header_value("ETag") == avif_etag);
    CHECK(not_modified->get_header_value("Vary") == "Accept");
    CHECK(not_modified->get_header_value("Cache-Control") == "public, max-age=31536000, immutable");

    auto range = cdn.get("/f/med_photo/thumb", {{"Accept", kChrome}, {"Range", "bytes=0-99"}});
    REQUIRE(range);
    CHECK(range->status == 206);
    CHECK(range->body == avif->body.substr(0, 100));
    CHECK(range->get_header_value("Content-Range") == "bytes 0-99/" + std::to_string(avif->body.size()));
    CHECK(cdn.made == 2);

    auto hidden = cdn.get("/f/med_private", {{"Accept", kChrome}});
    REQUIRE(hidden);
    CHECK(hidden->status == 404);
    auto unknown_quality = cdn.get("/f/med_photo/huge");
    REQUIRE(unknown_quality);
    CHECK(unknown_quality->status == 404);
  }

  TEST_CASE("a burst of first requests for one variant: made once, the same bytes for everyone") {
    CdnServer cdn;
    constexpr int kClients = 12;
    std::vector<std::string> etags(kClients), bodies(kClients);
    std::vector<int> statuses(kClients, 0);
    std::vector<std::thread> clients;
    for (int i = 0; i < kClients; ++i) {
      clients.emplace_back([&, i] {
        auto reply = cdn.get("/f/med_photo/medium", {{"Accept", "image/webp,*/*"}});
        if (!reply) return;
        statuses[i] = reply->status;
        etags[i] = reply->get_header_value("ETag");
        bodies[i] = reply->body;
      });
    }
    for (auto& client : clients) client.join();
    CHECK(cdn.made == 1);
    for (int i = 0; i < kClients; ++i) {
      CAPTURE(i);
      CHECK(statuses[i] == 200);
      CHECK(etags[i] == etags[0]);
      CHECK(bodies[i] == bodies[0]);
    }
    CHECK(core::cdn::sniff_format(std::string_view(bodies[0]).substr(0, 64)) == core::cdn::ImageFormat::webp);
  }
}
