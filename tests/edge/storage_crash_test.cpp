// Storage survives kill -9 during uploads (docs/storage-blobs.md, "Durability order"): the real edge
// process takes uploads from several clients while it is killed with SIGKILL. After a restart every
// acknowledged upload is there with its exact bytes, every record has its blob, and blobs no record names
// (a crash between blob and record, and one planted) are swept.

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "core/json.h"
#include "edge_process.h"
#include "test_edge.h"

TEST_SUITE_BEGIN("storage");

namespace {
namespace json = core::json;
namespace fs = std::filesystem;
using testing::client_for;
using testing::parse_object;

// Distinct, checkable bytes per upload (text, so the content check accepts them).
std::string content_of(const std::string& key, std::size_t size) {
  std::string out;
  out.reserve(size);
  while (out.size() < size) out += key + ";";
  out.resize(size);
  return out;
}

std::size_t regular_files(const std::string& dir) {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    n += it->is_regular_file();
  return n;
}

}  // namespace

TEST_CASE(
    "storage: kill -9 during uploads loses no acknowledged upload and leaves no record without its blob") {
  testing::TempDir dir;
  const std::string data = dir.path + "/data";
  const std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + data + " ";
  REQUIRE(testing::run(admin + "company create --slug crash --name Crash").exit_code == 0);
  auto made = testing::run(admin +
                           "token create --company crash --name api --permission storage.view "
                           "--permission buckets.create --permission media.upload");
  REQUIRE(made.exit_code == 0);
  const std::string token(parse_object(made.out).at("token").as_string());
  // The admin's quota command, and the quota it sets is what the API reports.
  auto quota = testing::run(admin + "storage quota --company crash --bytes 2000000000");
  REQUIRE(quota.exit_code == 0);
  CHECK(parse_object(quota.out).at("limit") == 2000000000);
  const std::vector<std::string> flags = {"--rate-limit", "1000000/1s"};

  std::mutex mu;
  std::map<std::string, std::string> acknowledged;  // media id -> the bytes sent
  std::string bucket_path;
  {
    testing::EdgeProcess edge(dir.path, data, flags);
    auto c = client_for(edge.port, token);
    auto bucket = c.Post("/api/storage/buckets", R"({"slug":"crash"})", "application/json");
    REQUIRE(bucket);
    REQUIRE(bucket->status == 201);
    std::atomic<bool> stop{false};
    std::atomic<int> done{0};
    std::vector<std::thread> clients;
    for (int t = 0; t < 4; ++t)
      clients.emplace_back([&, t] {
        auto cc = client_for(edge.port, token);
        for (int i = 0; !stop && i < 500; ++i) {
          const std::string key = "k-" + std::to_string(t) + "-" + std::to_string(i);
          const std::string bytes =
              content_of(key, 20'000 + static_cast<std::size_t>((t * 7919 + i * 104'729) % 400'000));
          auto res =
              cc.Post("/api/storage/buckets/crash/media?filename=" + key + ".txt", bytes, "text/plain");
          if (!res) break;  // the process is gone
          if (res->status != 201) {
            std::lock_guard lock(mu);
            FAIL_CHECK("unexpected answer " << res->status << " " << res->body);
            break;
          }
          std::lock_guard lock(mu);
          acknowledged[std::string(parse_object(res->body).at("data").at("id").as_string())] = bytes;
          ++done;
        }
      });
    while (done < 60) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    edge.stop(SIGKILL);
    stop = true;
    for (auto& th : clients) th.join();
  }
  REQUIRE(acknowledged.size() >= 60);

  // A blob no record names, as a crash between the blob and its record leaves it.
  fs::path planted;
  for (auto& p : fs::recursive_directory_iterator(data + "/blobs"))
    if (p.is_regular_file()) {
      planted = p.path().parent_path() / "med_PLANTEDorphan000";
      break;
    }
  REQUIRE_FALSE(planted.empty());
  std::ofstream(planted) << "orphan";

  testing::EdgeProcess edge(dir.path, data, flags);
  CHECK_FALSE(fs::exists(planted));
  CHECK(edge.log().find("orphan blobs") != std::string::npos);
  auto c = client_for(edge.port, token);
  c.set_read_timeout(30, 0);
  for (const auto& [id, bytes] : acknowledged) {
    auto url = c.Get("/api/storage/buckets/crash/media/" + id + "/download");
    REQUIRE(url);
    REQUIRE(url->status == 200);
    const std::string signed_url(parse_object(url->body).at("data").at("url").as_string());
    auto file = c.Get(signed_url.substr(signed_url.find("/api/")));
    REQUIRE(file);
    CHECK(file->status == 200);
    CHECK(file->body == bytes);
  }
  // Every record has its blob, every blob its record, and `used` is the sum of the records.
  auto list = c.Get("/api/storage/buckets/crash/media?limit=200");
  REQUIRE(list);
  REQUIRE_MESSAGE(list->status == 200, list->body);
  auto page = parse_object(list->body).at("data").as_object();
  const std::int64_t total = page.at("total").as_int64();
  CHECK(total >= static_cast<std::int64_t>(acknowledged.size()));
  std::int64_t sum = 0;
  for (std::int64_t skip = 0; skip < total; skip += 200) {
    auto p = c.Get("/api/storage/buckets/crash/media?limit=200&skip=" + std::to_string(skip));
    REQUIRE(p);
    const json::object body = parse_object(p->body);
    for (auto& m : body.at("data").at("items").as_array()) {
      const std::string id(m.at("id").as_string());
      sum += m.at("size").as_int64();
      if (acknowledged.count(id)) continue;
      // Committed but its answer was cut off by the kill: still whole.
      auto url = c.Get("/api/storage/buckets/crash/media/" + id + "/download");
      REQUIRE(url);
      REQUIRE_MESSAGE(url->status == 200, url->body);
      const std::string signed_url(parse_object(url->body).at("data").at("url").as_string());
      auto file = c.Get(signed_url.substr(signed_url.find("/api/")));
      REQUIRE(file);
      CHECK(file->status == 200);
      CHECK(static_cast<std::int64_t>(file->body.size()) == m.at("size").as_int64());
    }
  }
  CHECK(regular_files(data + "/blobs") == static_cast<std::size_t>(total));
  auto q = c.Get("/api/storage/storage-quota");
  REQUIRE(q);
  REQUIRE_MESSAGE(q->status == 200, q->body);
  CHECK(parse_object(q->body).at("data").at("used").as_int64() == sum);
  CHECK(parse_object(q->body).at("data").at("limit").as_int64() == 2000000000);
}

TEST_SUITE_END();
