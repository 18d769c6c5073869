// File responses: byte ranges (206/416), conditional GET (304) and validators, as rules and over HTTP.

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <thread>

#include "edge/http/file_response.h"
#include "edge/http/http_date.h"
#include "raw_client.h"
#include "test_server.h"

using namespace transport_test;
using namespace std::chrono_literals;
using edge::answer_file_request;
using edge::FileAnswer;
using edge::FileRequest;
using edge::FileVersion;

namespace {

const FileVersion kFile{1000, 784111777'000'000'000};  // 1994-11-06T08:49:37Z
const std::string kLastModified = "Sun, 06 Nov 1994 08:49:37 GMT";

FileAnswer ask(std::string_view range, std::string_view if_none_match = {},
               std::string_view if_modified_since = {}, std::string_view if_range = {}) {
  return answer_file_request(FileRequest{true, if_none_match, if_modified_since, range, if_range}, kFile);
}

}  // namespace

TEST_CASE("HTTP dates: IMF-fixdate both ways, other forms refused") {
  CHECK(edge::http_date(784111777) == kLastModified);
  CHECK(edge::http_date(0) == "Thu, 01 Jan 1970 00:00:00 GMT");
  CHECK(edge::http_date(1'795'000'000) == "Wed, 18 Nov 2026 11:06:40 GMT");
  CHECK(edge::http_date(946'684'800) == "Sat, 01 Jan 2000 00:00:00 GMT");
  CHECK(edge::http_date(253'402'300'799) == "Fri, 31 Dec 9999 23:59:59 GMT");
  CHECK(edge::parse_http_date(kLastModified) == 784111777);
  CHECK(edge::parse_http_date("Wed, 18 Nov 2026 11:06:40 GMT") == 1'795'000'000);
  CHECK_FALSE(edge::parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"));  // RFC 850
  CHECK_FALSE(edge::parse_http_date("Sun Nov  6 08:49:37 1994"));        // asctime
  CHECK_FALSE(edge::parse_http_date("Sun, 31 Feb 1994 08:49:37 GMT"));
  CHECK_FALSE(edge::parse_http_date("Sun, 06 Foo 1994 08:49:37 GMT"));
  CHECK_FALSE(edge::parse_http_date(""));
}

TEST_CASE("ranges: one range is 206, past the end 416, anything unusable the whole file") {
  struct Row {
    std::string_view range;
    int status;
    std::uint64_t offset, length;
  };
  const Row rows[] = {
      {"", 200, 0, 1000},
      {"bytes=0-99", 206, 0, 100},
      {"bytes=100-199", 206, 100, 100},
      {"bytes=990-", 206, 990, 10},
      {"bytes=990-5000", 206, 990, 10},  // last clipped to the end
      {"bytes=-10", 206, 990, 10},       // suffix
      {"bytes=-5000", 206, 0, 1000},     // suffix longer than the file
      {"bytes=999-999", 206, 999, 1},
      {"bytes=1000-", 416, 0, 0},
      {"bytes=1000-1001", 416, 0, 0},
      {"bytes=-0", 416, 0, 0},
      {"bytes=5-1", 200, 0, 1000},      // invalid: ignored
      {"bytes=0-1,5-6", 200, 0, 1000},  // several ranges: the whole file
      {"items=0-1", 200, 0, 1000},      // another unit
      {"bytes=abc-", 200, 0, 1000},
      {"bytes=-", 200, 0, 1000},
      {"bytes=0-99x", 200, 0, 1000},
  };
  for (const Row& row : rows) {
    CAPTURE(row.range);
    FileAnswer a = ask(row.range);
    CHECK(a.status == row.status);
    if (a.status != 416) {
      CHECK(a.offset == row.offset);
      CHECK(a.length == row.length);
    }
  }
}

TEST_CASE("conditionals: If-None-Match first, If-Modified-Since only without it, If-Range guards Range") {
  std::string etag = edge::file_etag(kFile);
  CHECK(etag == "\"3e8-ae1b981bc490a00\"");
  CHECK(ask("", etag).status == 304);
  CHECK(ask("", "W/" + etag).status == 304);  // weak comparison
  CHECK(ask("", "\"other\", " + etag).status == 304);
  CHECK(ask("", "*").status == 304);
  CHECK(ask("", "\"other\"").status == 200);
  // If-None-Match present and not matching: If-Modified-Since is not consulted.
  CHECK(ask("", "\"other\"", kLastModified).status == 200);
  CHECK(ask("", {}, kLastModified).status == 304);
  CHECK(ask("", {}, "Mon, 07 Nov 1994 08:49:37 GMT").status == 304);
  CHECK(ask("", {}, "Sat, 05 Nov 1994 08:49:37 GMT").status == 200);
  CHECK(ask("", {}, "not a date").status == 200);
  CHECK(ask("bytes=0-9", {}, {}, etag).status == 206);
  CHECK(ask("bytes=0-9", {}, {}, "\"stale\"").status == 200);
  CHECK(ask("bytes=0-9", {}, {}, "W/" + etag).status == 200);  // If-Range compares strongly
  CHECK(ask("bytes=0-9", {}, {}, kLastModified).status == 206);
  CHECK(ask("bytes=0-9", {}, {}, "Mon, 07 Nov 1994 08:49:37 GMT").status == 200);
  // Conditionals and ranges apply to GET and HEAD only.
  CHECK(answer_file_request(FileRequest{false, etag, {}, "bytes=0-9", {}}, kFile).status == 200);
}

TEST_CASE("file responses over HTTP: whole, range, suffix, 416, 304, HEAD, missing file") {
  TestServer s;
  std::string content;
  for (int i = 0; i < 300000; ++i) content.push_back(static_cast<char>('a' + i % 26));
  s.service->file_path = (s.dir / "blob.bin").string();
  std::ofstream(s.service->file_path, std::ios::binary) << content;
  RawConn c(s.port);
  auto get = [&](const std::string& extra, bool head = false) {
    auto r = c.exchange(
        std::string(head ? "HEAD" : "GET") + " /file HTTP/1.1\r\nHost: t\r\n" + extra + "\r\n", 10s, head);
    REQUIRE(r);
    return *r;
  };
  auto whole = get("");
  CHECK(whole.status == 200);
  CHECK(whole.body == content);
  CHECK(whole.header("accept-ranges") == "bytes");
  CHECK(whole.header("content-type") == "application/octet-stream");
  CHECK(whole.header("content-length") == "300000");
  CHECK(whole.header("connection").empty());  // HTTP/1.1 keeps the connection without saying so
  CHECK(whole.count("date") == 1);
  CHECK(whole.header("date").size() == 29);
  std::string etag = whole.header("etag");
  std::string modified = whole.header("last-modified");
  REQUIRE(etag.size() > 2);
  struct stat st {};
  REQUIRE(::stat(s.service->file_path.c_str(), &st) == 0);
  CHECK(modified == edge::http_date(st.st_mtim.tv_sec));

  auto part = get("Range: bytes=100000-100009\r\n");
  CHECK(part.status == 206);
  CHECK(part.body == content.substr(100000, 10));
  CHECK(part.header("content-range") == "bytes 100000-100009/300000");

  auto tail = get("Range: bytes=-5\r\n");
  CHECK(tail.status == 206);
  CHECK(tail.body == content.substr(299995));

  auto beyond = get("Range: bytes=300000-\r\n");
  CHECK(beyond.status == 416);
  CHECK(beyond.header("content-range") == "bytes */300000");
  CHECK(beyond.header("content-length") == "0");
  CHECK(beyond.header("content-type").empty());
  CHECK(beyond.body.empty());

  auto same = get("If-None-Match: " + etag + "\r\n");
  CHECK(same.status == 304);
  CHECK(same.header("etag") == etag);
  CHECK(same.header("content-length").empty());
  CHECK(same.body.empty());
  CHECK(get("If-Modified-Since: " + modified + "\r\n").status == 304);
  CHECK(get("If-Range: \"old\"\r\nRange: bytes=0-0\r\n").status == 200);

  auto head = get("", true);
  CHECK(head.status == 200);
  CHECK(head.header("content-length") == "300000");
  // The connection is still in step after HEAD: the next answer is whole.
  CHECK(get("Range: bytes=0-2\r\n").body == "abc");

  // HTTP/1.0: kept open only when asked, and then said so; otherwise answered and closed.
  RawConn old(s.port);
  auto kept = old.exchange("GET /file HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  REQUIRE(kept);
  CHECK(kept->status == 200);
  CHECK(kept->header("connection") == "keep-alive");
  CHECK(kept->body == content);
  auto last = old.exchange("GET /file HTTP/1.0\r\n\r\n");
  REQUIRE(last);
  CHECK(last->body == content);
  CHECK(last->header("connection").empty());
  CHECK(old.wait_closed(5s));

  std::filesystem::remove(s.service->file_path);
  auto gone = get("");
  CHECK(gone.status == 404);
}

TEST_CASE(
    "a file far larger than the socket buffers reaches a slow reader whole, and the connection stays in "
    "step") {
  TestServer s;
  // 24 MiB: several turns of the I/O thread (4 MiB each) and many waits for a full socket.
  std::string content(24u << 20, '\0');
  std::uint64_t x = 88172645463325252ull;
  for (char& ch : content) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ch = static_cast<char>(x);
  }
  s.service->file_path = (s.dir / "large.bin").string();
  std::ofstream(s.service->file_path, std::ios::binary) << content;
  RawConn c(s.port);
  // Two pipelined requests for the file and one for a text answer, then a pause before reading anything:
  // the server fills the socket and must wait for it to drain.
  REQUIRE(
      c.send("GET /file HTTP/1.1\r\nHost: t\r\n\r\nGET /file HTTP/1.1\r\nHost: t\r\nRange: bytes=1000-"
             "1999999\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
  std::this_thread::sleep_for(300ms);
  auto whole = c.read_response(30s);
  REQUIRE(whole);
  CHECK(whole->status == 200);
  CHECK(whole->header("content-length") == std::to_string(content.size()));
  CHECK(whole->body.size() == content.size());
  CHECK(whole->body == content);
  auto part = c.read_response(30s);
  REQUIRE(part);
  CHECK(part->status == 206);
  CHECK(part->body == content.substr(1000, 1999000));
  auto hello = c.read_response(10s);
  REQUIRE(hello);
  CHECK(hello->body == "hello");
}

TEST_CASE("a client that stops reading a file response is cut off after the send deadline") {
  edge::HttpServerOptions options;
  options.send_timeout = 300ms;
  TestServer s(options);
  s.service->file_path = (s.dir / "large.bin").string();
  std::ofstream(s.service->file_path, std::ios::binary) << std::string(64u << 20, 'x');
  RawConn c(s.port);
  REQUIRE(c.send("GET /file HTTP/1.1\r\nHost: t\r\n\r\n"));
  c.read_at_least(1, 5s);
  // Reading nothing more: the server gives up within the deadline (plus the time to fill the buffers).
  std::this_thread::sleep_for(1500ms);
  // Drain whatever is buffered: the connection ends before all 64 MiB arrive.
  CHECK(c.wait_closed(10s));
  CHECK(c.buffered().size() < (64u << 20));
}

TEST_CASE("an inline answer is sent from the I/O thread; when it declines, the handler runs on a worker") {
  TestServer s;
  s.service->file_path = (s.dir / "small.bin").string();
  std::ofstream(s.service->file_path, std::ios::binary) << "0123456789";
  RawConn c(s.port);
  auto quick = c.exchange("GET /quick?answer=text HTTP/1.1\r\nHost: t\r\n\r\n");
  REQUIRE(quick);
  CHECK(quick->status == 200);
  CHECK(quick->body == "quick");
  auto file = c.exchange("GET /quick?answer=file HTTP/1.1\r\nHost: t\r\nRange: bytes=2-4\r\n\r\n");
  REQUIRE(file);
  CHECK(file->status == 206);
  CHECK(file->body == "234");
  auto declined = c.exchange("GET /quick HTTP/1.1\r\nHost: t\r\n\r\n");
  REQUIRE(declined);
  CHECK(declined->status == 200);
  CHECK(declined->body == "handler on a worker");
}
