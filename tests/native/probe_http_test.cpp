// One HTTP probe (native/probe/http_probe.h) against loopback servers: what each way a request can end is
// measured as, the overall deadline, TLS verification, no redirects, the body bound. Timing assertions
// are upper bounds with 2 s of slack for a loaded machine, never tight.

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "native/probe/http_probe.h"
#include "tests/native/probe_servers.h"

namespace {

using core::status::ProbeReason;
using core::status::ProbeStatus;
using core::status::ProbeTransport;
using native::probe::http_probe;
using native::probe::ProbeOptions;
using native::probe::ProbeRequest;
using native::probe::ProbeResult;

ProbeRequest request(const std::string& url, const std::string& method = "GET", int timeout_ms = 5000) {
  ProbeRequest r;
  r.url = url;
  r.settings.method = method;
  r.settings.timeoutMs = timeout_ms;
  r.settings.degradedLatencyMs = timeout_ms;
  return r;
}

// Runs the probe and returns its result with the wall time it took.
ProbeResult probe(const ProbeRequest& r, std::int64_t* wall_ms = nullptr, const ProbeOptions& options = {}) {
  const auto start = std::chrono::steady_clock::now();
  auto result = http_probe(r, options);
  if (wall_ms != nullptr)
    *wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                   .count();
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
  return *result;
}

}  // namespace

TEST_SUITE("probe") {
  TEST_CASE("the URL is parsed into scheme, host, port and target; other schemes are refused") {
    auto u = native::probe::parse_probe_url("https://example.com/health?deep=1#top");
    REQUIRE(u.ok());
    CHECK(u->scheme == "https");
    CHECK(u->host == "example.com");
    CHECK(u->port == 443);
    CHECK(u->target == "/health?deep=1");

    u = native::probe::parse_probe_url("http://127.0.0.1:8080");
    REQUIRE(u.ok());
    CHECK(u->port == 8080);
    CHECK(u->target == "/");

    u = native::probe::parse_probe_url("HTTP://[::1]:9000/a/b");
    REQUIRE(u.ok());
    CHECK(u->scheme == "http");
    CHECK(u->host == "::1");
    CHECK(u->port == 9000);
    CHECK(u->target == "/a/b");

    CHECK(native::probe::parse_probe_url("ftp://example.com/").error().code == "probe_unsupported_scheme");
    CHECK(native::probe::parse_probe_url("file:///etc/passwd").error().code == "probe_unsupported_scheme");
    CHECK(native::probe::parse_probe_url("gopher://example.com/").error().code == "probe_unsupported_scheme");
    CHECK(native::probe::parse_probe_url("example.com/health").error().code == "probe_invalid_url");
    CHECK(native::probe::parse_probe_url("http://").error().code == "probe_invalid_url");
    CHECK(native::probe::parse_probe_url("http://host:99999/").error().code == "probe_invalid_url");
    const auto with_user = native::probe::parse_probe_url("https://admin:secret@example.com/");
    CHECK(with_user.error().code == "probe_invalid_url");
    CHECK(with_user.error().message.find("secret") == std::string::npos);

    // A refused scheme is refused by the probe itself too, before any I/O.
    CHECK(http_probe(request("ftp://127.0.0.1/")).error().code == "probe_unsupported_scheme");
  }

  TEST_CASE("a fast 200 is a response with status 200, measured, with the platform's User-Agent") {
    probe_test::TargetServer server;
    const auto r = probe(request(server.url("/ok")));
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.httpStatus == 200);
    CHECK(r.outcome.latencyMs >= 0);
    CHECK(r.outcome.latencyMs < 2000);
    CHECK(r.error.empty());
    CHECK(server.last_user_agent() == native::probe::kUserAgent);
    CHECK(server.last_method() == "GET");
  }

  TEST_CASE("a 500 is a response with status 500, judged down") {
    probe_test::TargetServer server;
    const auto req = request(server.url("/fail"));
    const auto r = probe(req);
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.httpStatus == 500);
    CHECK(core::status::classify_probe(req.settings, r.outcome).reason == ProbeReason::unexpected_status);
  }

  TEST_CASE("an answer slower than the timeout ends at the deadline as a timeout") {
    probe_test::TargetServer server;
    std::int64_t wall = 0;
    const auto r = probe(request(server.url("/slow?ms=8000"), "GET", 1000), &wall);
    CHECK(r.outcome.transport == ProbeTransport::timeout);
    CHECK(r.outcome.latencyMs >= 900);
    CHECK(wall < 1000 + 2000);
    CHECK(!r.error.empty());
  }

  TEST_CASE("a server that accepts and never answers ends at the deadline as a timeout") {
    probe_test::SilentServer server;
    std::int64_t wall = 0;
    const auto r =
        probe(request("http://127.0.0.1:" + std::to_string(server.port()) + "/", "GET", 1000), &wall);
    CHECK(r.outcome.transport == ProbeTransport::timeout);
    CHECK(wall < 1000 + 2000);
  }

  TEST_CASE("a trickling body cannot hold the probe past its deadline") {
    probe_test::TrickleServer server;
    std::int64_t wall = 0;
    const auto r =
        probe(request("http://127.0.0.1:" + std::to_string(server.port()) + "/", "GET", 1500), &wall);
    CHECK(r.outcome.transport == ProbeTransport::timeout);
    CHECK(r.outcome.latencyMs >= 1400);
    CHECK(wall < 1500 + 2000);
  }

  TEST_CASE("a refused connection is a transport error with a reason") {
    const auto req = request("http://127.0.0.1:" + std::to_string(probe_test::closed_port()) + "/");
    const auto r = probe(req);
    CHECK(r.outcome.transport == ProbeTransport::error);
    CHECK(!r.error.empty());
    CHECK(core::status::classify_probe(req.settings, r.outcome).reason == ProbeReason::transport_error);
  }

  TEST_CASE("the body is searched for expectedBodyContains") {
    probe_test::TargetServer server;
    auto req = request(server.url("/ok"));
    req.settings.expectedBodyContains = "operational";
    CHECK(probe(req).outcome.bodyContainsExpected);
    req.settings.expectedBodyContains = "outage";
    const auto r = probe(req);
    CHECK_FALSE(r.outcome.bodyContainsExpected);
    CHECK(core::status::classify_probe(req.settings, r.outcome).reason == ProbeReason::body_mismatch);
  }

  TEST_CASE("only the first MiB of the body is read and searched") {
    probe_test::TargetServer server;
    auto req = request(server.url("/big"));
    req.settings.expectedBodyContains = "MARKER";
    auto r = probe(req);
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.httpStatus == 200);
    CHECK_FALSE(r.outcome.bodyContainsExpected);  // beyond the bound
    req.url = server.url("/big-early");
    r = probe(req);
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.bodyContainsExpected);
  }

  TEST_CASE("HEAD and POST are sent as such") {
    probe_test::TargetServer server;
    auto r = probe(request(server.url("/ok"), "HEAD"));
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.httpStatus == 200);
    CHECK(server.last_method() == "HEAD");
    r = probe(request(server.url("/ok"), "POST"));
    CHECK(r.outcome.httpStatus == 200);
    CHECK(server.last_method() == "POST");
  }

  TEST_CASE("a redirect is not followed: the 3xx is the status") {
    probe_test::TargetServer server;
    const auto req = request(server.url("/redirect"));
    const auto r = probe(req);
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.httpStatus == 302);
    CHECK(server.requests("/ok") == 0);
    CHECK(core::status::classify_probe(req.settings, r.outcome).status == ProbeStatus::down);
  }

  TEST_CASE("https: the certificate is verified unless the caller skips verification") {
    probe_test::SelfSignedCert cert("DNS:localhost,IP:127.0.0.1");
    probe_test::TargetServer server(cert.cert_file(), cert.key_file());
    auto req = request(server.url("/ok"));

    // Not trusted by the system bundle.
    auto r = probe(req);
    CHECK(r.outcome.transport == ProbeTransport::error);
    CHECK(!r.error.empty());

    // Skipped on the caller's word.
    req.insecure_skip_tls_verify = true;
    r = probe(req);
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.httpStatus == 200);

    // Trusted through a CA file: verification itself works.
    req.insecure_skip_tls_verify = false;
    ProbeOptions trusting;
    trusting.ca_file = cert.cert_file();
    r = probe(req, nullptr, trusting);
    CHECK(r.outcome.transport == ProbeTransport::response);
    CHECK(r.outcome.httpStatus == 200);
  }

  TEST_CASE("https: a trusted certificate for another host name is refused") {
    probe_test::SelfSignedCert cert("DNS:other.example");
    probe_test::TargetServer server(cert.cert_file(), cert.key_file());
    ProbeOptions trusting;
    trusting.ca_file = cert.cert_file();
    const auto r = probe(request(server.url("/ok")), nullptr, trusting);
    CHECK(r.outcome.transport == ProbeTransport::error);
  }

  TEST_CASE("https: an unreadable CA bundle is a transport error, not a skipped verification") {
    probe_test::SelfSignedCert cert("IP:127.0.0.1");
    probe_test::TargetServer server(cert.cert_file(), cert.key_file());
    ProbeOptions missing;
    missing.ca_file = "/nonexistent/ca.pem";
    const auto r = probe(request(server.url("/ok")), nullptr, missing);
    CHECK(r.outcome.transport == ProbeTransport::error);
    CHECK(r.error.find("/nonexistent/ca.pem") != std::string::npos);
  }

  TEST_CASE("a cancelled probe gives up early and reports probe_cancelled") {
    probe_test::SilentServer server;
    std::atomic<bool> cancel{false};
    ProbeOptions options;
    options.cancel = &cancel;
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    const auto result =
        http_probe(request("http://127.0.0.1:" + std::to_string(server.port()) + "/", "GET", 20000), options);
    const auto wall = std::chrono::steady_clock::now() - start;
    canceller.join();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == "probe_cancelled");
    CHECK(wall < std::chrono::milliseconds(300 + 3000));
  }
}
