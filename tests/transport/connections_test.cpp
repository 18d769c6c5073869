// Many connections: idle keep-alive sockets and slow clients cost no thread and delay nobody; deadlines,
// the connection cap, and shutdown.

#include <doctest/doctest.h>

#include <vector>

#include "raw_client.h"
#include "test_server.h"

using namespace transport_test;
using namespace std::chrono_literals;

namespace {

// A request on a fresh connection, answered within a generous bound (a "normal" answer; figures are for
// the benchmark).
void check_fresh_request_answers(int port) {
  RawConn c(port);
  REQUIRE(c.ok());
  auto r = c.exchange("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n", 5s);
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "hello");
}

}  // namespace

TEST_CASE("2,000 idle keep-alive connections: a new request is answered normally, and so is each of them") {
  edge::HttpServerOptions o;
  o.worker_threads = 4;  // far fewer threads than connections
  TestServer s(o);
  std::vector<RawConn> idle;
  idle.reserve(2000);
  for (int i = 0; i < 2000; ++i) {
    idle.emplace_back(s.port);
    REQUIRE(idle.back().ok());
    // One request each first, so every one is a keep-alive connection between requests.
    REQUIRE(idle.back().send("GET /path/" + std::to_string(i) + " HTTP/1.1\r\nHost: t\r\n\r\n"));
  }
  for (int i = 0; i < 2000; ++i) {
    auto r = idle[static_cast<std::size_t>(i)].read_response(10s);
    REQUIRE(r);
    CHECK(r->body == "GET /path/" + std::to_string(i));
  }
  CHECK(s.server->connections() == 2000);
  check_fresh_request_answers(s.port);
  // The idle ones still work.
  for (int i : {0, 999, 1999}) {
    REQUIRE(idle[static_cast<std::size_t>(i)].send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
    auto r = idle[static_cast<std::size_t>(i)].read_response(5s);
    REQUIRE(r);
    CHECK(r->body == "hello");
  }
}

TEST_CASE("200 connections trickling their headers do not delay a new request, and each gets 408") {
  edge::HttpServerOptions o;
  o.header_timeout = 1500ms;
  TestServer s(o);
  std::vector<RawConn> slow;
  const std::string head = "GET /hello HTTP/1.1\r\nHost: t\r\nX-Slow: yes\r\n\r\n";
  for (int i = 0; i < 200; ++i) {
    slow.emplace_back(s.port);
    REQUIRE(slow.back().ok());
  }
  // One byte per connection every 50 ms: none finishes its head before the deadline.
  std::size_t sent = 0;
  bool checked_fresh = false;
  auto started = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - started < 1000ms && sent < head.size() - 1) {
    for (auto& c : slow) c.send(head.substr(sent, 1));
    ++sent;
    if (sent == 5 && !checked_fresh) {
      check_fresh_request_answers(s.port);
      checked_fresh = true;
    }
    std::this_thread::sleep_for(50ms);
  }
  REQUIRE(checked_fresh);
  for (auto& c : slow) {
    auto r = c.read_response(10s);
    REQUIRE(r);
    CHECK(r->status == 408);
    CHECK(r->body == "request header timeout");
    CHECK(c.wait_closed(5s));
  }
}

TEST_CASE("an idle keep-alive connection is closed after the idle deadline") {
  edge::HttpServerOptions o;
  o.idle_timeout = 300ms;
  TestServer s(o);
  RawConn c(s.port);
  REQUIRE(c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
  REQUIRE(c.read_response());
  CHECK(c.wait_closed(5s));
  CHECK(c.buffered().empty());  // closed without a response: it had asked nothing
  CHECK(eventually([&] { return s.server->connections() == 0; }));
}

TEST_CASE("the idle deadline counts from the last answer, however many answers came before") {
  edge::HttpServerOptions o;
  o.idle_timeout = 1500ms;
  TestServer s(o);
  RawConn c(s.port);
  // Requests 250 ms apart for twice the idle deadline: the connection stays open throughout.
  for (int i = 0; i < 12; ++i) {
    REQUIRE(c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
    auto r = c.read_response();
    REQUIRE(r);
    CHECK(r->body == "hello");
    std::this_thread::sleep_for(250ms);
  }
  CHECK(c.wait_closed(10s));
  CHECK(c.buffered().empty());
}

TEST_CASE("after a keep-alive answer, a head that stalls gets 408 at the header deadline, not the idle one") {
  edge::HttpServerOptions o;
  o.idle_timeout = 60s;
  o.header_timeout = 300ms;
  TestServer s(o);
  RawConn c(s.port);
  REQUIRE(c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
  REQUIRE(c.read_response());
  REQUIRE(c.send("GET /hello HTTP/1.1\r\nHo"));
  auto r = c.read_response(10s);
  REQUIRE(r);
  CHECK(r->status == 408);
  CHECK(r->body == "request header timeout");
  CHECK(c.wait_closed(5s));
}

TEST_CASE("past the connection cap new connections are closed at once; the open ones keep working") {
  edge::HttpServerOptions o;
  o.max_connections = 20;
  TestServer s(o);
  std::vector<RawConn> held;
  for (int i = 0; i < 20; ++i) {
    held.emplace_back(s.port);
    REQUIRE(held.back().send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
    REQUIRE(held.back().read_response());
  }
  RawConn extra(s.port);  // the kernel completes the handshake; the server closes it
  CHECK(extra.wait_closed(5s));
  CHECK(extra.buffered().empty());
  REQUIRE(held[0].send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
  auto r = held[0].read_response();
  REQUIRE(r);
  CHECK(r->body == "hello");
  // Once some close, new connections are served again.
  for (std::size_t i = 10; i < held.size(); ++i) held[i].close();
  CHECK(eventually([&] { return s.server->connections() == 10; }));
  check_fresh_request_answers(s.port);
}

TEST_CASE("shutdown with 1,000 idle connections closes them at once and serve() returns") {
  TestServer s;
  std::vector<RawConn> idle;
  for (int i = 0; i < 1000; ++i) {
    idle.emplace_back(s.port);
    REQUIRE(idle.back().send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"));
  }
  for (auto& c : idle) REQUIRE(c.read_response());
  auto started = std::chrono::steady_clock::now();
  s.stop();  // returns when serve() has returned
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MESSAGE("stopped with 1000 idle connections in " << seconds << " s");
  CHECK(seconds < 5.0);  // generous: the figure itself goes to the benchmark
  for (int i : {0, 500, 999}) CHECK(idle[static_cast<std::size_t>(i)].wait_closed(2s));
  RawConn late(s.port);
  CHECK(!late.ok());  // nothing listens any more
}

TEST_CASE("shutdown lets a request in flight finish, answered with Connection: close") {
  TestServer s;
  RawConn busy(s.port);
  REQUIRE(busy.send("GET /slow?ms=500 HTTP/1.1\r\nHost: t\r\n\r\n"));
  std::this_thread::sleep_for(100ms);  // the handler is running on a worker now
  std::thread stopper([&] { s.stop(); });
  auto r = busy.read_response(10s);
  stopper.join();
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "slow");
  CHECK(r->header("connection") == "close");
  CHECK(busy.wait_closed(2s));
}

TEST_CASE("a request in flight past the shutdown grace is cut off, and serve() still returns") {
  edge::HttpServerOptions o;
  o.shutdown_grace = 200ms;
  TestServer s(o);
  RawConn busy(s.port);
  REQUIRE(busy.send("GET /slow?ms=1500 HTTP/1.1\r\nHost: t\r\n\r\n"));
  std::this_thread::sleep_for(100ms);
  s.stop();  // serve() waits for the worker to finish its sleep, but the connection is closed at the grace
  CHECK(busy.wait_closed(2s));
}
