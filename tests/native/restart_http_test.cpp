// HTTP restart targets (native/restart/http_target.h) against a cpp-httplib server in this process, and
// the detail line every target type shares.

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "native/restart/detail_text.h"
#include "native/restart/http_target.h"
#include "tests/native/child_process.h"
#include "tests/native/local_http_server.h"
#include "tests/native/temp_dir.h"

using core::status::HttpRestartTarget;
using native::restart::detail_text;
using native::restart::fire_http;
using native::restart::RestartOutcome;

namespace {

const std::string kSecret = "Bearer restart-s3cret-7f1c";

// Answers /restart with the status in the `status` query parameter (200 without), /slow after 1.5 s, and
// /moved with a redirect to /restart.
struct RestartServer {
  test_http::LocalHttpServer http;
  RestartServer() {
    auto answer = [this](const httplib::Request& request, httplib::Response& response) {
      http.record(request);
      response.status = request.has_param("status") ? std::stoi(request.get_param_value("status")) : 200;
      response.set_content(R"({"restarted":true})", "application/json");
    };
    http.server().Get("/restart", answer);
    http.server().Post("/restart", answer);
    http.server().Post("/slow", [this](const httplib::Request& request, httplib::Response& response) {
      http.record(request);
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      response.set_content("late", "text/plain");
    });
    http.server().Post("/moved", [this](const httplib::Request& request, httplib::Response& response) {
      http.record(request);
      response.set_redirect("/restart");
    });
    http.start();
  }
};

HttpRestartTarget target_for(const std::string& url) {
  HttpRestartTarget target;
  target.url = url;
  target.authHeaderValue = kSecret;
  target.body = R"({"action":"restart","service":"api"})";
  target.timeoutMs = 5000;
  return target;
}

}  // namespace

TEST_SUITE("restart") {
  TEST_CASE("HTTP target: a POST with the auth header and body, 200 is success") {
    RestartServer server;
    const RestartOutcome outcome = fire_http(target_for(server.http.url("/restart")));
    CHECK(outcome.ok);
    CHECK(outcome.detail == "HTTP 200");
    CHECK(outcome.durationMs >= 0);
    CHECK(outcome.durationMs < 5000);
    CHECK(outcome.hostKeyFingerprint.empty());
    const auto requests = server.http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].method == "POST");
    CHECK(requests[0].path == "/restart");
    CHECK(requests[0].header("Authorization") == kSecret);
    CHECK(requests[0].body == R"({"action":"restart","service":"api"})");
    CHECK(requests[0].header("Content-Type") == "application/json");
    CHECK_FALSE(requests[0].has_header("Expect"));
  }

  TEST_CASE("HTTP target: a GET with a custom auth header name and no body") {
    RestartServer server;
    HttpRestartTarget target = target_for(server.http.url("/restart?service=api"));
    target.method = "GET";
    target.body = "";
    target.authHeaderName = "X-Restart-Key";
    target.authHeaderValue = "k3y";
    const RestartOutcome outcome = fire_http(target);
    CHECK(outcome.ok);
    const auto requests = server.http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].method == "GET");
    CHECK(requests[0].param("service") == "api");
    CHECK(requests[0].header("X-Restart-Key") == "k3y");
    CHECK_FALSE(requests[0].has_header("Authorization"));
    CHECK_FALSE(requests[0].has_header("Content-Type"));
    CHECK(requests[0].body.empty());
  }

  TEST_CASE("HTTP target: a POST without a body and without auth sends neither") {
    RestartServer server;
    HttpRestartTarget target = target_for(server.http.url("/restart"));
    target.body = "";
    target.authHeaderValue = "";
    CHECK(fire_http(target).ok);
    const auto requests = server.http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].method == "POST");
    CHECK(requests[0].body.empty());
    CHECK_FALSE(requests[0].has_header("Authorization"));
    CHECK_FALSE(requests[0].has_header("Content-Type"));
  }

  TEST_CASE("HTTP target: a status outside the expected range fails with the status in the detail") {
    RestartServer server;
    const RestartOutcome outcome = fire_http(target_for(server.http.url("/restart?status=500")));
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "HTTP 500 (expected 200-299)");
    CHECK(outcome.detail.find("s3cret") == std::string::npos);
  }

  TEST_CASE("HTTP target: the expected status range is the target's") {
    RestartServer server;
    HttpRestartTarget target = target_for(server.http.url("/restart?status=204"));
    target.expectedStatusMin = 204;
    target.expectedStatusMax = 204;
    CHECK(fire_http(target).ok);
    target.url = server.http.url("/restart?status=200");
    const RestartOutcome outcome = fire_http(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "HTTP 200 (expected 204-204)");
    target.url = server.http.url("/restart?status=503");
    target.expectedStatusMin = 500;
    target.expectedStatusMax = 599;
    CHECK(fire_http(target).ok);
  }

  TEST_CASE("HTTP target: a redirect is the answer, not followed") {
    RestartServer server;
    const RestartOutcome outcome = fire_http(target_for(server.http.url("/moved")));
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "HTTP 302 (expected 200-299)");
    const auto requests = server.http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].path == "/moved");
  }

  TEST_CASE("HTTP target: a slow server times out at the target's deadline") {
    RestartServer server;
    HttpRestartTarget target = target_for(server.http.url("/slow"));
    target.timeoutMs = 300;
    const RestartOutcome outcome = fire_http(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "timed out after 300 ms");
    CHECK(outcome.durationMs >= 290);
    CHECK(outcome.durationMs < 1200);
  }

  TEST_CASE("HTTP target: connection refused is an error, without the secret") {
    const int port = test_process::free_tcp_port();
    REQUIRE(port != 0);
    const RestartOutcome outcome =
        fire_http(target_for("http://127.0.0.1:" + std::to_string(port) + "/restart"));
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail.starts_with("request failed: "));
    CHECK(outcome.detail.find(std::to_string(port)) != std::string::npos);
    CHECK(outcome.detail.find("s3cret") == std::string::npos);
    MESSAGE("refused: " << outcome.detail);
  }

  TEST_CASE("HTTP target: https verifies the certificate") {
    // A self-signed certificate for 127.0.0.1: the handshake must fail before the request is sent.
    store_test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    const std::string cert = dir.str() + "/cert.pem";
    const std::string key = dir.str() + "/key.pem";
    const auto made =
        test_process::run({"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                           "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                           "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert},
                          std::chrono::seconds(30));
    REQUIRE_MESSAGE(made.exit_code == 0, made.output);
    httplib::SSLServer server(cert.c_str(), key.c_str());
    REQUIRE(server.is_valid());
    int hits = 0;
    server.Post("/restart", [&](const httplib::Request&, httplib::Response& response) {
      ++hits;
      response.set_content("ok", "text/plain");
    });
    const int port = server.bind_to_any_port("127.0.0.1");
    std::thread thread([&] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const RestartOutcome outcome =
        fire_http(target_for("https://127.0.0.1:" + std::to_string(port) + "/restart"));
    server.stop();
    thread.join();
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail.starts_with("request failed: "));
    CHECK(outcome.detail.find("certificate") != std::string::npos);
    CHECK(hits == 0);
    MESSAGE("self-signed: " << outcome.detail);
  }

  TEST_CASE("HTTP target: invalid settings send nothing") {
    RestartServer server;
    HttpRestartTarget target = target_for(server.http.url("/restart"));
    target.method = "DELETE";
    RestartOutcome outcome = fire_http(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "invalid target: invalid_method");
    target = target_for(server.http.url("/restart"));
    target.authHeaderValue = "Bearer x\r\nX-Injected: yes";
    outcome = fire_http(target);
    CHECK(outcome.detail == "invalid target: invalid_auth_header");
    CHECK(server.http.requests().empty());
  }

  TEST_CASE("detail text: secrets redacted, one line, bounded on a character boundary") {
    CHECK(detail_text("HTTP 401: token abc123 rejected", {"abc123"}) ==
          "HTTP 401: token [redacted] rejected");
    CHECK(detail_text("abc123abc123", {"abc123", ""}) == "[redacted][redacted]");
    CHECK(detail_text("  line one\r\n\tline\x01two  ", {}) == "line one line two");
    CHECK(detail_text("", {"x"}).empty());
    const std::string long_text = std::string(296, 'a') + "\xc3\xa4\xc3\xa4\xc3\xa4";
    const std::string cut = detail_text(long_text, {});
    CHECK(cut.size() <= native::restart::kMaxDetailBytes);
    CHECK(cut == std::string(296, 'a') + "...");
    // A secret cut by the bound would leave a prefix behind; redaction comes first.
    const std::string secret(40, 's');
    const std::string tail = detail_text(std::string(280, 'a') + secret, {secret});
    CHECK(tail.find('s') == std::string::npos);
    CHECK(tail.find("[redacted]") != std::string::npos);
  }
}
