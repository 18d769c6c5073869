// HTTP/1.1 as RFC 9110/9112 say: pipelining, HEAD, Connection: close, one Date, Expect, chunked request
// bodies, and the answers to malformed or oversized heads.

#include <doctest/doctest.h>

#include <thread>

#include "raw_client.h"
#include "test_server.h"

using namespace transport_test;
using namespace std::chrono_literals;

TEST_CASE("pipelined requests are answered in order on one connection") {
  TestServer s;
  RawConn c(s.port);
  REQUIRE(c.ok());
  // Three requests in one write; the middle one is slow, so order cannot come from timing.
  REQUIRE(
      c.send("GET /path/one HTTP/1.1\r\nHost: t\r\n\r\n"
             "GET /slow?ms=200 HTTP/1.1\r\nHost: t\r\n\r\n"
             "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nthree"));
  auto r1 = c.read_response(), r2 = c.read_response(), r3 = c.read_response();
  REQUIRE(r1);
  REQUIRE(r2);
  REQUIRE(r3);
  CHECK(r1->body == "GET /path/one");
  CHECK(r2->body == "slow");
  CHECK(r3->body == "three");
  CHECK(r3->header("connection") != "close");
}

TEST_CASE("heads that arrive in pieces are answered, also one cut after a pipelined request") {
  TestServer s;
  RawConn c(s.port);
  REQUIRE(c.ok());
  REQUIRE(c.send("GET /path/one HTTP/1.1\r\nHost: t\r\n\r\nGET /path/tw"));
  auto r1 = c.read_response();
  REQUIRE(r1);
  CHECK(r1->body == "GET /path/one");
  std::this_thread::sleep_for(100ms);
  REQUIRE(c.send("o HTTP/1.1\r\nHo"));
  std::this_thread::sleep_for(100ms);
  REQUIRE(c.send("st: t\r\n\r\n"));
  auto r2 = c.read_response();
  REQUIRE(r2);
  CHECK(r2->body == "GET /path/two");
  // A malformed head after an answered one: 400, and the connection closes.
  REQUIRE(c.send("GET /path/three HTTP/1.1\r\nHost: t\r\n\r\nGARBAGE\r\n\r\n"));
  auto r3 = c.read_response(), r4 = c.read_response();
  REQUIRE(r3);
  REQUIRE(r4);
  CHECK(r3->body == "GET /path/three");
  CHECK(r4->status == 400);
  CHECK(c.wait_closed(5s));
}

TEST_CASE("HEAD answers the GET's headers with its Content-Length and no body") {
  TestServer s;
  RawConn c(s.port);
  auto head = c.exchange("HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n", 10s,
                         /*head_only=*/true);
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->header("content-length") == "5");
  // The next bytes on the wire are the second response, not a body of the first.
  auto get = c.read_response();
  REQUIRE(get);
  CHECK(get->body == "hello");
}

TEST_CASE("every response carries exactly one Date header and keeps the connection alive by default") {
  TestServer s;
  RawConn c(s.port);
  for (int i = 0; i < 3; ++i) {
    auto r = c.exchange("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n");
    REQUIRE(r);
    CHECK(r->count("date") == 1);
    CHECK(r->header("date").size() == 29);  // IMF-fixdate
    CHECK(r->header("date").substr(26) == "GMT");
  }
}

TEST_CASE("Connection: close is answered with Connection: close and the server closes") {
  TestServer s;
  RawConn c(s.port);
  auto r = c.exchange("GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  REQUIRE(r);
  CHECK(r->body == "hello");
  CHECK(r->header("connection") == "close");
  CHECK(c.wait_closed(5s));
}

TEST_CASE("an HTTP/1.0 request without keep-alive is answered as 1.0 and closed") {
  TestServer s;
  RawConn c(s.port);
  auto r = c.exchange("GET /hello HTTP/1.0\r\n\r\n");
  REQUIRE(r);
  CHECK(r->body == "hello");
  CHECK(c.wait_closed(5s));
}

TEST_CASE("a chunked request body is decoded") {
  TestServer s;
  RawConn c(s.port);
  auto r = c.exchange(
      "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "hello, world");
}

TEST_CASE("Expect: 100-continue gets 100 Continue before the body, then the answer") {
  TestServer s;
  RawConn c(s.port);
  auto interim =
      c.exchange("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
  REQUIRE(interim);
  CHECK(interim->status == 100);
  auto r = c.exchange("ping");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "ping");
}

TEST_CASE("Expect: 100-continue with a body over the limit gets 413 and never 100") {
  TestServer s;
  RawConn c(s.port);
  auto r =
      c.exchange("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\nExpect: 100-continue\r\n\r\n");
  REQUIRE(r);
  CHECK(r->status == 413);
  CHECK(r->body == "request body too large");
  CHECK(r->header("connection") == "close");
}

TEST_CASE("an expectation other than 100-continue is 417") {
  TestServer s;
  RawConn c(s.port);
  auto r = c.exchange("GET /hello HTTP/1.1\r\nHost: t\r\nExpect: something-else\r\n\r\n");
  REQUIRE(r);
  CHECK(r->status == 417);
}

TEST_CASE("malformed requests get 400 and the connection closes") {
  const char* cases[] = {
      "GARBAGE\r\n\r\n",
      "GET /hello HTTP/9.9\r\nHost: t\r\n\r\n",
      "GET /hello HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
      "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "GET /hello HTTP/1.1\r\n\r\n",  // HTTP/1.1 without Host (RFC 9112 §3.2)
  };
  TestServer s;
  for (const char* raw : cases) {
    CAPTURE(raw);
    RawConn c(s.port);
    auto r = c.exchange(raw);
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(c.wait_closed(5s));
  }
}

TEST_CASE("header fields past the byte limit or the count limit are 431, and memory stays bounded") {
  edge::HttpServerOptions o;
  o.max_header_bytes = 8 << 10;
  o.max_header_count = 20;
  TestServer s(o);
  SUBCASE("one long header") {
    RawConn c(s.port);
    auto r = c.exchange("GET /hello HTTP/1.1\r\nHost: t\r\nX-Long: " + std::string(9000, 'a') + "\r\n\r\n");
    REQUIRE(r);
    CHECK(r->status == 431);
    CHECK(c.wait_closed(5s));
  }
  SUBCASE("too many fields") {
    RawConn c(s.port);
    std::string req = "GET /hello HTTP/1.1\r\nHost: t\r\n";
    for (int i = 0; i < 25; ++i) req += "X-" + std::to_string(i) + ": v\r\n";
    auto r = c.exchange(req + "\r\n");
    REQUIRE(r);
    CHECK(r->status == 431);
    CHECK(r->body == "too many request header fields");
  }
  SUBCASE("200 MB of header lines: refused after the limit, the process does not grow") {
    reset_peak_rss();
    long before = peak_rss_kib();
    RawConn c(s.port);
    REQUIRE(c.send("GET /hello HTTP/1.1\r\nHost: t\r\n"));
    std::string lines;
    for (int i = 0; i < 1000; ++i) lines += "X-Filler: " + std::string(190, 'x') + "\r\n";  // 200 kB
    int sent_chunks = 0;
    while (sent_chunks < 1000 && c.send(lines)) ++sent_chunks;  // stops when the server closes
    auto r = c.read_response(5s);
    if (r) CHECK(r->status == 431);  // the answer may be lost to the reset of the unread rest
    CHECK(sent_chunks < 1000);
    CHECK(peak_rss_kib() - before < 32 * 1024);
  }
  // The server still answers normally afterwards.
  RawConn fresh(s.port);
  auto ok = fresh.exchange("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n");
  REQUIRE(ok);
  CHECK(ok->status == 200);
}

TEST_CASE("an answer decided from the head alone closes a connection whose body was not read") {
  TestServer s;
  RawConn c(s.port);
  auto r = c.exchange("POST /early HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n");
  REQUIRE(r);
  CHECK(r->status == 404);
  CHECK(r->body == "no such route");
  CHECK(r->header("connection") == "close");
}
