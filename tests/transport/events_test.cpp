// Server-Sent Events: events reach the client as they are sent, heartbeats keep the stream alive, a client
// that goes away is noticed, a slow client is cut off at the cap, and shutdown ends streams.

#include <doctest/doctest.h>

#include "raw_client.h"
#include "test_server.h"

using namespace transport_test;
using namespace std::chrono_literals;

namespace {

// Opens /events and returns once the handler has handed out the stream.
std::shared_ptr<edge::EventStream> open_stream(TestServer& s, RawConn& c, std::size_t index = 0) {
  REQUIRE(c.send("GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n"));
  std::unique_lock lock(s.service->mutex);
  REQUIRE(s.service->changed.wait_for(lock, 10s, [&] { return s.service->streams.size() > index; }));
  return s.service->streams[index];
}

bool wait_ended(TestServer& s, int count) {
  std::unique_lock lock(s.service->mutex);
  return s.service->changed.wait_for(lock, 10s, [&] { return s.service->streams_ended >= count; });
}

}  // namespace

TEST_CASE("events are delivered as they are sent, framed per the event-stream format") {
  TestServer s;
  RawConn c(s.port);
  auto stream = open_stream(s, c);
  const std::string& head = c.read_at_least(1, 5s);
  REQUIRE(head.find("\r\n\r\n") != std::string::npos);
  CHECK(head.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(head.find("Content-Type: text/event-stream") != std::string::npos);
  CHECK(head.find("Transfer-Encoding: chunked") != std::string::npos);
  CHECK(head.find("Cache-Control: no-cache") != std::string::npos);

  CHECK(stream->send("{\"status\":\"operational\"}", "status", "1"));
  std::string expected = "event: status\nid: 1\ndata: {\"status\":\"operational\"}\n\n";
  CHECK(eventually(
      [&] { return c.read_at_least(c.buffered().size() + 1, 100ms).find(expected) != std::string::npos; }));
  // Lines of a multi-line value become separate data lines; a line break cannot end the event early.
  CHECK(stream->send("line one\nline two\r\nline three"));
  std::string multi = "data: line one\ndata: line two\ndata: line three\n\n";
  CHECK(eventually(
      [&] { return c.read_at_least(c.buffered().size() + 1, 100ms).find(multi) != std::string::npos; }));
  CHECK(stream->send("x", "bad\nname"));  // a line break in the name is dropped
  CHECK(eventually([&] {
    return c.read_at_least(c.buffered().size() + 1, 100ms).find("event: badname\ndata: x\n\n") !=
           std::string::npos;
  }));

  // The producer ends the stream: the last chunk ends the response, then the connection closes.
  stream->close();
  CHECK(c.wait_closed(5s));
  CHECK(c.buffered().find("0\r\n\r\n") != std::string::npos);
  CHECK(stream->state() == edge::EventStream::State::closed_by_producer);
  CHECK_FALSE(stream->send("too late"));
}

TEST_CASE("a heartbeat comment is sent while no events are") {
  edge::HttpServerOptions o;
  o.event_heartbeat = 100ms;
  TestServer s(o);
  RawConn c(s.port);
  auto stream = open_stream(s, c);
  CHECK(eventually(
      [&] { return c.read_at_least(c.buffered().size() + 1, 100ms).find(":\n\n") != std::string::npos; },
      5s));
  CHECK(stream->open());
}

TEST_CASE("a client that closes its event stream is noticed without any event being sent") {
  TestServer s;
  auto c = std::make_unique<RawConn>(s.port);
  auto stream = open_stream(s, *c);
  CHECK(stream->open());
  c.reset();
  CHECK(wait_ended(s, 1));
  CHECK(stream->state() == edge::EventStream::State::client_gone);
  CHECK_FALSE(stream->send("nobody listens"));
  CHECK(eventually([&] { return s.server->connections() == 0; }));
}

TEST_CASE("a client that reads nothing is cut off once the per-connection cap is passed") {
  edge::HttpServerOptions o;
  o.event_buffer_limit = 64 << 10;
  TestServer s(o);
  RawConn c(s.port);  // never reads
  auto stream = open_stream(s, c);
  std::string event(16 << 10, 'e');
  int sent = 0;
  while (stream->send(event) && sent < 100'000) ++sent;  // socket buffers fill, then the cap is reached
  CHECK(sent < 100'000);
  CHECK(stream->state() == edge::EventStream::State::too_slow);
  CHECK(wait_ended(s, 1));
}

TEST_CASE("shutdown ends open event streams properly and serve() returns") {
  TestServer s;
  RawConn c(s.port);
  auto stream = open_stream(s, c);
  s.stop();
  CHECK(stream->state() == edge::EventStream::State::shutdown);
  CHECK(c.wait_closed(5s));
  CHECK(c.buffered().find("0\r\n\r\n") != std::string::npos);
}
