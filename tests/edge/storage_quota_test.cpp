// Storage: the company quota (docs/storage-api.md, "Quota"): reserved from the declared length at the
// request head (413 naming the quota before any body byte), checked again at commit, released on failure;
// `used` exact under parallel uploads past the quota and parallel deletes; GET /usage and /storage-quota.

#include <atomic>
#include <mutex>
#include <thread>

#include "../transport/raw_client.h"
#include "edge/storage/quota_ledger.h"
#include "edge/storage/storage_store.h"
#include "storage_support.h"

using namespace storage_test;

TEST_SUITE_BEGIN("storage");

namespace {

httplib::Client client_of(TestEdge& e) {
  httplib::Client c("127.0.0.1", e.server->port());
  c.set_tcp_nodelay(true);
  c.set_read_timeout(30, 0);
  return c;
}

}  // namespace

TEST_CASE("storage quota: the default, a company's own, and 413 naming it at the head and at commit") {
  StorageEdge e(unthrottled());
  CHECK(quota(e, e.acme_token) == std::pair<std::int64_t, std::int64_t>{0, 5'000'000'000});
  REQUIRE(edge::storage::set_quota(e.server->app(), "acme", 1000).ok());
  CHECK(quota(e, e.acme_token) == std::pair<std::int64_t, std::int64_t>{0, 1000});
  CHECK(quota(e, e.globex_token, "globex").second == 5'000'000'000);
  REQUIRE(make_bucket(e, e.acme_token, "files").status == 201);

  auto a = upload_raw(e, e.acme_token, "files", std::string(600, 'a'), "filename=a.txt");
  REQUIRE(a.status == 201);
  auto over = upload_raw(e, e.acme_token, "files", std::string(500, 'b'), "filename=b.txt");
  CHECK(over.status == 413);
  CHECK(
      over.body ==
      R"x({"data":null,"error":"storage quota exceeded: the upload of 500 bytes does not fit in the company's quota of 1000 bytes (600 used)"})x");
  auto fits = upload_raw(e, e.acme_token, "files", std::string(400, 'c'), "filename=c.txt");
  REQUIRE(fits.status == 201);
  CHECK(quota(e, e.acme_token).first == 1000);
  CHECK(upload_raw(e, e.acme_token, "files", "d", "filename=d.txt").status == 413);

  // Refused from the head alone: the body is never sent.
  transport_test::RawConn conn(e.server->port());
  auto refused = conn.exchange(
      "POST /api/storage/buckets/files/media?filename=x.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
      "Bearer " +
      e.acme_token + "\r\nContent-Length: 10\r\n\r\n");
  REQUIRE(refused.has_value());
  CHECK(refused->status == 413);

  // Deletes give the bytes back in the same write.
  REQUIRE(e.del("/api/companies/acme/buckets/files/media/" + str(a.data(), "id"), e.acme_token).status ==
          200);
  CHECK(quota(e, e.acme_token).first == 400);
  // Chunked (no Content-Length): nothing to reserve at the head, so the commit's check refuses it.
  REQUIRE(edge::storage::set_quota(e.server->app(), "acme", 500).ok());
  transport_test::RawConn chunked(e.server->port());
  auto late = chunked.exchange(
      "POST /api/storage/buckets/files/media?filename=y.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Authorization: Bearer " +
      e.acme_token + "\r\nTransfer-Encoding: chunked\r\n\r\n96\r\n" + std::string(150, 'y') +
      "\r\n0\r\n\r\n");
  REQUIRE(late.has_value());
  CHECK(late->status == 413);
  CHECK(late->body.find(
            "storage quota exceeded: the upload of 150 bytes does not fit in the company's quota of "
            "500 bytes (400 used") != std::string::npos);
  auto usage = e.get("/api/storage/usage", e.acme_token);
  REQUIRE(usage.status == 200);
  CHECK(num(usage.data(), "used") == 400);
  CHECK(num(usage.data(), "limit") == 500);
  const auto& rows = usage.data().as_object().at("buckets").as_array();
  REQUIRE(rows.size() == 1);
  CHECK(num(rows[0], "bytes") == 400);
  CHECK(num(rows[0], "count") == 1);
  CHECK(e.get("/api/companies/acme/storage-quota", e.token_with("acme", {"media.upload"})).status == 403);
}

TEST_CASE("storage quota: parallel uploads past the quota never exceed it, and used stays exact") {
  StorageEdge e(unthrottled());
  constexpr std::int64_t kSize = 10'000, kFit = 10, kThreads = 32;
  REQUIRE(edge::storage::set_quota(e.server->app(), "acme", kSize * kFit).ok());
  REQUIRE(make_bucket(e, e.acme_token, "race").status == 201);
  std::atomic<int> created{0}, refused{0}, other{0};
  std::mutex mu;
  std::string unexpected;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      auto c = client_of(e);
      auto r = c.Post("/api/companies/acme/buckets/race/media?filename=f" + std::to_string(i) + ".txt",
                      {{"Authorization", "Bearer " + e.acme_token}}, std::string(kSize, 'r'),
                      "application/octet-stream");
      if (r && r->status == 201) {
        ++created;
      } else if (r && r->status == 413 && r->body.find("storage quota exceeded") != std::string::npos) {
        ++refused;
      } else {
        ++other;
        std::lock_guard lock(mu);
        unexpected = r ? std::to_string(r->status) + " " + r->body : "no response";
      }
    });
  for (auto& t : threads) t.join();
  CHECK_MESSAGE(other == 0, unexpected);
  CHECK(created + refused == kThreads);
  CHECK(created >= 1);
  CHECK(created <= kFit);
  auto [used, limit] = quota(e, e.acme_token);
  CHECK(used == created * kSize);
  CHECK(used <= limit);
  auto list = e.get("/api/companies/acme/buckets/race/media?limit=200", e.acme_token);
  CHECK(num(list.data(), "total") == created);
  CHECK(edge::storage::upload_reservations().reserved(
            e.server->app().accounts->company_by_slug("acme")->id) == 0);
  // Filling up one by one reaches the quota exactly, and one more is refused.
  int more = 0;
  while (upload_raw(e, e.acme_token, "race", std::string(kSize, 's'), "filename=s.txt").status == 201) ++more;
  CHECK(created + more == kFit);
  CHECK(quota(e, e.acme_token).first == kSize * kFit);
}

TEST_CASE("storage quota: parallel deletes (also of the same item) and uploads keep used exact") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "churn").status == 201);
  std::vector<std::string> ids;
  std::int64_t total = 0;
  for (int i = 0; i < 24; ++i) {
    auto up = upload_raw(e, e.acme_token, "churn", std::string(100 + i, 'x'), "filename=x.txt");
    REQUIRE(up.status == 201);
    ids.push_back(str(up.data(), "id"));
    total += 100 + i;
  }
  CHECK(quota(e, e.acme_token).first == total);
  std::atomic<int> deleted{0}, missing{0};
  std::atomic<std::int64_t> added{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      auto c = client_of(e);
      httplib::Headers auth{{"Authorization", "Bearer " + e.acme_token}};
      // Every item is deleted by two threads: exactly one of them wins.
      for (std::size_t i = static_cast<std::size_t>(t) % 4; i < ids.size(); i += 4) {
        auto r = c.Delete("/api/companies/acme/buckets/churn/media/" + ids[i], auth);
        if (r && r->status == 200) ++deleted;
        if (r && r->status == 404) ++missing;
      }
      auto r = c.Post("/api/companies/acme/buckets/churn/media?filename=n.txt", auth, std::string(7 + t, 'n'),
                      "application/octet-stream");
      if (r && r->status == 201) added += 7 + t;
    });
  for (auto& t : threads) t.join();
  CHECK(deleted == 24);
  CHECK(missing == 24);
  CHECK(added == 7 * 8 + 28);
  CHECK(quota(e, e.acme_token).first == added.load());
  auto usage = e.get("/api/companies/acme/usage", e.acme_token);
  const auto& row = usage.data().as_object().at("buckets").as_array()[0];
  CHECK(num(row, "bytes") == added.load());
  CHECK(num(row, "count") == 8);
}

TEST_SUITE_END();
