// Which address a request comes from (edge/platform/client_address.h).

#include "edge/platform/client_address.h"

#include <doctest/doctest.h>

#include "edge/http/message.h"

namespace {

std::string client(const std::string& peer, const char* forwarded, const std::vector<std::string>& trusted) {
  edge::Request req;
  req.remote_addr = peer;
  if (forwarded) req.headers["x-forwarded-for"] = forwarded;
  return edge::client_address(req, trusted);
}

}  // namespace

TEST_CASE("client address: X-Forwarded-For counts only from a trusted proxy, read right to left") {
  const std::vector<std::string> none, proxy = {"10.0.0.1"}, two = {"10.0.0.1", "10.0.0.2"};
  struct Case {
    std::string peer;
    const char* forwarded;
    const std::vector<std::string>& trusted;
    std::string expected;
  };
  const Case cases[] = {
      {"203.0.113.9", nullptr, none, "203.0.113.9"},
      {"203.0.113.9", "198.51.100.1", none, "203.0.113.9"},          // no proxy trusted: header ignored
      {"203.0.113.9", "198.51.100.1", proxy, "203.0.113.9"},         // peer is not the proxy
      {"10.0.0.1", nullptr, proxy, "10.0.0.1"},                      // proxy without header
      {"10.0.0.1", "198.51.100.1", proxy, "198.51.100.1"},           // the proxy's client
      {"10.0.0.1", "1.1.1.1, 198.51.100.1", proxy, "198.51.100.1"},  // left entries are the client's word
      {"10.0.0.1", "1.1.1.1,198.51.100.1 ", proxy, "198.51.100.1"},
      {"10.0.0.1", "198.51.100.1, 10.0.0.2", two, "198.51.100.1"},  // through two trusted proxies
      {"10.0.0.1", "10.0.0.2", two, "10.0.0.2"},                    // every hop trusted: the last one
      {"10.0.0.1", "1.1.1.1, not-an-address", proxy, "10.0.0.1"},   // broken chain: stop at the proxy
      {"10.0.0.1", "", proxy, "10.0.0.1"},
      {"::ffff:10.0.0.1", "198.51.100.1", proxy, "198.51.100.1"},  // IPv4-mapped peer
      {"10.0.0.1", "2001:DB8::1", proxy, "2001:db8::1"},           // canonical IPv6
  };
  for (const Case& c : cases)
    CHECK_MESSAGE(client(c.peer, c.forwarded, c.trusted) == c.expected, c.peer, " / ",
                  (c.forwarded ? c.forwarded : "(none)"));
}

TEST_CASE("client address: trusted proxies must be IP addresses") {
  CHECK(edge::canonical_address("::ffff:192.0.2.1").value_or("") == "192.0.2.1");
  auto bad = edge::canonical_address("proxy.internal");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == "invalid_address");
}
