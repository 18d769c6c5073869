// Request bodies: route limits enforced while the body arrives, bodies streamed to a sink without being
// held in memory, and the deadline between body pieces.

#include <doctest/doctest.h>

#include <filesystem>

#include "raw_client.h"
#include "test_server.h"

using namespace transport_test;
using namespace std::chrono_literals;

TEST_CASE("a Content-Length over the route's limit is 413 before any body byte is sent") {
  TestServer s;
  RawConn c(s.port);
  // 100 MB announced to a 1 MiB route; the client sends no body at all and still gets its answer.
  auto r = c.exchange("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 104857600\r\n\r\n");
  REQUIRE(r);
  CHECK(r->status == 413);
  CHECK(r->body == "request body too large");
  CHECK(r->header("connection") == "close");
}

TEST_CASE("a chunked body is cut off with 413 as soon as it passes the route's limit") {
  TestServer s;
  RawConn c(s.port);
  REQUIRE(c.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"));
  std::string chunk = "10000\r\n" + std::string(0x10000, 'b') + "\r\n";  // 64 KiB a chunk
  int sent = 0;
  // 1 MiB is the limit: the answer comes after about 16 chunks, not after the 100 MB the client offers.
  while (sent < 1600 && c.send(chunk)) {
    ++sent;
    if (sent == 20) break;
  }
  auto r = c.read_response();
  REQUIRE(r);
  CHECK(r->status == 413);
}

TEST_CASE("a body up to the limit is accepted whole") {
  TestServer s;
  RawConn c(s.port);
  std::string body(1 << 20, 'x');
  REQUIRE(c.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(body.size()) +
                 "\r\n\r\n"));
  auto r = c.exchange(body);
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == body);
}

TEST_CASE("a 100 MB upload streams to the route's sink with the process's memory bounded") {
  TestServer s;
  const std::size_t total = 100u << 20;
  std::string piece(1 << 20, '\0');
  for (std::size_t i = 0; i < piece.size(); ++i) piece[i] = static_cast<char>((i * 131 + 7) & 0xff);
  std::uint64_t expected = kFnvStart;
  for (std::size_t sent = 0; sent < total; sent += piece.size()) expected = fnv1a(piece, expected);

  SUBCASE("with Content-Length") {
    reset_peak_rss();
    long before = peak_rss_kib();
    RawConn c(s.port);
    REQUIRE(
        c.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(total) + "\r\n\r\n"));
    for (std::size_t sent = 0; sent < total; sent += piece.size()) REQUIRE(c.send(piece));
    auto r = c.read_response(60s);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body == std::to_string(total) + " " + hex(expected) + " 0");
    long grown = peak_rss_kib() - before;
    MESSAGE("peak RSS grew by " << grown << " KiB during a " << (total >> 20) << " MiB upload");
    CHECK(grown < 32 * 1024);
  }
  SUBCASE("chunked") {
    reset_peak_rss();
    long before = peak_rss_kib();
    RawConn c(s.port);
    REQUIRE(c.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"));
    char size_line[32];
    std::snprintf(size_line, sizeof size_line, "%zx\r\n", piece.size());
    for (std::size_t sent = 0; sent < total; sent += piece.size()) {
      REQUIRE(c.send(size_line));
      REQUIRE(c.send(piece));
      REQUIRE(c.send("\r\n"));
    }
    auto r = c.exchange("0\r\n\r\n", 60s);
    REQUIRE(r);
    CHECK(r->body == std::to_string(total) + " " + hex(expected) + " 0");
    CHECK(peak_rss_kib() - before < 32 * 1024);
  }
  // The sink removed its temporary file once the request was answered.
  CHECK(eventually([&] { return !std::filesystem::exists(s.service->last_upload_path); }));
}

TEST_CASE("an upload abandoned half way leaves no file behind") {
  TestServer s;
  {
    RawConn c(s.port);
    REQUIRE(c.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n"));
    REQUIRE(c.send(std::string(300000, 'u')));
    REQUIRE(eventually([&] { return std::filesystem::exists(s.service->last_upload_path); }));
  }
  CHECK(eventually([&] { return !std::filesystem::exists(s.service->last_upload_path); }));
}

TEST_CASE("a body that stalls longer than the body deadline is 408") {
  edge::HttpServerOptions o;
  o.body_timeout = 300ms;
  TestServer s(o);
  RawConn c(s.port);
  auto r = c.exchange("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc", 10s);
  REQUIRE(r);
  CHECK(r->status == 408);
  CHECK(r->body == "request body timeout");
  CHECK(c.wait_closed(5s));
}

TEST_CASE("a body that keeps arriving, slowly, is not cut off by the body deadline") {
  edge::HttpServerOptions o;
  o.body_timeout = 500ms;
  TestServer s(o);
  RawConn c(s.port);
  REQUIRE(c.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 6\r\n\r\n"));
  for (char ch :
       std::string("abcdef")) {  // 6 x 150 ms: longer than the deadline in total, never between pieces
    std::this_thread::sleep_for(150ms);
    REQUIRE(c.send(std::string(1, ch)));
  }
  auto r = c.read_response();
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "abcdef");
}
