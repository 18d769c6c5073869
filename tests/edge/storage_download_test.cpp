// Storage: download URLs (docs/storage-api.md, "Download URLs"): the authenticated route answers a URL
// signed for 15 minutes; the URL serves the file with Content-Disposition, ranges, ETag and 304; it expires
// (manual clock) and refuses any tampering (id, expiry, signature).

#include "../transport/raw_client.h"
#include "storage_support.h"

using namespace storage_test;

TEST_SUITE_BEGIN("storage");

namespace {

struct Signed {
  std::string path, id, expires, signature;
};

Signed signed_url(TestEdge& e, const std::string& id) {
  auto r = e.get("/api/companies/acme/buckets/files/media/" + id + "/download", e.acme_token);
  REQUIRE(r.status == 200);
  const std::string url = str(r.data(), "url");
  REQUIRE(url.rfind(e.url(), 0) == 0);
  Signed s;
  s.path = url.substr(e.url().size());
  const auto q = s.path.find('?');
  const auto amp = s.path.find('&');
  s.id =
      s.path.substr(std::string("/api/storage/files/").size(), q - std::string("/api/storage/files/").size());
  s.expires = s.path.substr(q + std::string("?expires=").size(), amp - q - std::string("?expires=").size());
  s.signature = s.path.substr(amp + std::string("&signature=").size());
  return s;
}

std::string file_path(const std::string& id, const std::string& expires, const std::string& signature) {
  return "/api/storage/files/" + id + "?expires=" + expires + "&signature=" + signature;
}

}  // namespace

TEST_CASE("storage download: a signed URL serves the file, with ranges and conditional requests") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "files").status == 201);
  std::string bytes;
  for (int i = 0; i < 5000; ++i) bytes += static_cast<char>('a' + i % 26);
  auto up = upload_raw(e, e.acme_token, "files", bytes, "filename=rapor%20%C3%B6zet.txt");
  REQUIRE(up.status == 201);
  const std::string id = str(up.data(), "id");

  auto answer = e.get("/api/companies/acme/buckets/files/media/" + id + "/download", e.acme_token);
  REQUIRE(answer.status == 200);
  CHECK(str(answer.data(), "expiresAt") == "2026-11-18T11:21:40.000Z");  // 15 minutes after now
  const Signed s = signed_url(e, id);
  CHECK(s.id == id);
  CHECK(s.expires == std::to_string(testing::TestEdge::kStart / 1000 + 900));
  CHECK(s.signature.size() == 64);

  // No credential needed: the signature is the authorization.
  auto whole = e.get(s.path);
  REQUIRE(whole.status == 200);
  CHECK(whole.body == bytes);
  CHECK(whole.header("Content-Type") == "text/plain");
  CHECK(whole.header("Accept-Ranges") == "bytes");
  CHECK(whole.header("X-Content-Type-Options") == "nosniff");
  const std::string etag = whole.header("ETag");
  CHECK_FALSE(etag.empty());

  auto part = e.send("GET", s.path, "", {{"Range", "bytes=100-199"}});
  CHECK(part.status == 206);
  CHECK(part.body == bytes.substr(100, 100));
  CHECK(part.header("Content-Range") == "bytes 100-199/5000");
  auto tail = e.send("GET", s.path, "", {{"Range", "bytes=-10"}});
  CHECK(tail.status == 206);
  CHECK(tail.body == bytes.substr(4990));
  CHECK(e.send("GET", s.path, "", {{"Range", "bytes=6000-"}}).status == 416);
  // Headers as sent (httplib decodes %XX in header values, and waits for a body after a 304).
  transport_test::RawConn conn(e.server->port());
  auto raw = conn.exchange("GET " + s.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  REQUIRE(raw.has_value());
  CHECK(raw->header("content-disposition") ==
        "attachment; filename=\"rapor __zet.txt\"; filename*=UTF-8''rapor%20%C3%B6zet.txt");
  CHECK(raw->header("cache-control") == "private, max-age=0, must-revalidate");
  auto same =
      conn.exchange("GET " + s.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: " + etag + "\r\n\r\n",
                    std::chrono::seconds(10), true);
  REQUIRE(same.has_value());
  CHECK(same->status == 304);

  // Other companies and unknown items: 404 from the authenticated route.
  CHECK(e.get("/api/companies/globex/buckets/files/media/" + id + "/download", e.globex_token).status == 404);
  CHECK(e.get("/api/companies/acme/buckets/files/media/med_AAAAAAAAAAAAAAAA/download", e.acme_token).status ==
        404);
  CHECK(e.get("/api/companies/acme/buckets/files/media/" + id + "/download",
              e.token_with("acme", {"media.upload"}))
            .error() == "access token lacks permission 'storage.view'");

  // A deleted item's URL no longer serves it.
  REQUIRE(e.del("/api/companies/acme/buckets/files/media/" + id, e.acme_token).status == 200);
  auto deleted = e.get(s.path);
  CHECK(deleted.status == 404);
  CHECK(deleted.error() == "media not found");
}

TEST_CASE("storage download: the URL expires after 15 minutes and refuses any change") {
  StorageEdge e(unthrottled());
  REQUIRE(make_bucket(e, e.acme_token, "files").status == 201);
  auto a = upload_raw(e, e.acme_token, "files", "first file\n", "filename=a.txt");
  auto b = upload_raw(e, e.acme_token, "files", "second file\n", "filename=b.txt");
  REQUIRE(a.status == 201);
  REQUIRE(b.status == 201);
  const Signed s = signed_url(e, str(a.data(), "id"));
  CHECK(e.get(s.path).body == "first file\n");

  // Tampering: another id with this signature, a later expiry, a changed signature, missing parts.
  auto other_id = e.get(file_path(str(b.data(), "id"), s.expires, s.signature));
  CHECK(other_id.status == 403);
  CHECK(other_id.body == R"({"data":null,"error":"the download URL's signature is not valid"})");
  CHECK(e.get(file_path(s.id, std::to_string(std::stoll(s.expires) + 3600), s.signature)).status == 403);
  std::string flipped = s.signature;
  flipped[0] = flipped[0] == '0' ? '1' : '0';
  CHECK(e.get(file_path(s.id, s.expires, flipped)).status == 403);
  CHECK(e.get(file_path(s.id, s.expires, s.signature.substr(0, 63))).status == 403);
  CHECK(e.get("/api/storage/files/" + s.id + "?expires=" + s.expires).status == 403);
  CHECK(e.get("/api/storage/files/" + s.id).status == 403);

  // Good up to and including its expiry second, refused after it.
  e.clock.advance_ms(15 * 60 * 1000);
  CHECK(e.get(s.path).status == 200);
  e.clock.advance_ms(1000);
  auto expired = e.get(s.path);
  CHECK(expired.status == 403);
  CHECK(expired.error() == "the download URL has expired");
  // A fresh URL works again.
  CHECK(e.get(signed_url(e, s.id).path).status == 200);
}

TEST_SUITE_END();
