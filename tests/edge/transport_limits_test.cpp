// The products behind the transport: limits answered in each path's own error format, before a body is
// read, and static files served as file responses with validators.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "../transport/raw_client.h"
#include "test_edge.h"

using namespace std::chrono_literals;
using transport_test::RawConn;

TEST_CASE("a 100 MB body announced to /oauth/token is refused with 413 before any of it is sent") {
  testing::TestEdge edge;
  RawConn c(edge.server->port());
  auto r = c.exchange(
      "POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
      "Content-Length: 104857600\r\n\r\n",
      5s);
  REQUIRE(r);
  CHECK(r->status == 413);
  CHECK(r->header("connection") == "close");
}

TEST_CASE("transport refusals use the path's error format: the envelope, the restaurant's, HTML") {
  edge::Config config;
  config.max_header_count = 10;
  testing::TestEdge edge(config);
  auto ask = [&](const std::string& path) {
    RawConn c(edge.server->port());
    std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < 12; ++i) req += "X-" + std::to_string(i) + ": v\r\n";
    auto r = c.exchange(req + "\r\n", 5s);
    REQUIRE(r);
    CHECK(r->status == 431);
    return *r;
  };
  CHECK(ask("/api/companies/acme").body == R"({"data":null,"error":"too many request header fields"})");
  CHECK(ask("/api/restaurant/companies/acme/branches").body ==
        R"({"error":"request_header_fields_too_large","message":"too many request header fields"})");
  auto page = ask("/login");
  CHECK(page.header("content-type").rfind("text/html", 0) == 0);
}

TEST_CASE("a chunked body over the JSON limit is cut off with 413 in the envelope") {
  testing::TestEdge edge;
  RawConn c(edge.server->port());
  REQUIRE(
      c.send("POST /api/companies/acme/access-tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
             edge.acme_token + "\r\nTransfer-Encoding: chunked\r\n\r\n"));
  std::string chunk = "10000\r\n" + std::string(0x10000, ' ') + "\r\n";
  for (int i = 0; i < 20; ++i)
    if (!c.send(chunk)) break;
  auto r = c.read_response(5s);
  REQUIRE(r);
  CHECK(r->status == 413);
  CHECK(r->body == R"({"data":null,"error":"request body too large"})");
}

TEST_CASE("static pages are file responses: ETag, Last-Modified, 304, ranges") {
  testing::TempDir web;
  std::filesystem::create_directories(web.path + "/tools");
  std::ofstream(web.path + "/tools/page.html") << "<!doctype html><title>t</title>";
  edge::Config config;
  config.web_root = web.path;
  testing::TestEdge edge(config);
  RawConn c(edge.server->port());
  auto first = c.exchange("GET /web/tools/page.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  REQUIRE(first);
  CHECK(first->status == 200);
  CHECK(first->body == "<!doctype html><title>t</title>");
  CHECK(first->header("content-type") == "text/html; charset=utf-8");
  CHECK(first->header("cache-control") == "no-cache");
  std::string etag = first->header("etag");
  REQUIRE(!etag.empty());
  CHECK(!first->header("last-modified").empty());
  auto again = c.exchange("GET /web/tools/page.html HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: " + etag +
                          "\r\n\r\n");
  REQUIRE(again);
  CHECK(again->status == 304);
  CHECK(again->body.empty());
  auto part = c.exchange("GET /web/tools/page.html HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=0-8\r\n\r\n");
  REQUIRE(part);
  CHECK(part->status == 206);
  CHECK(part->body == "<!doctype");
  auto missing = c.exchange("GET /web/tools/missing.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  REQUIRE(missing);
  CHECK(missing->status == 404);
}
