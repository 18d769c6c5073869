// Deployment-platform restart targets (native/restart/deploy_target.h) against a local server speaking
// Coolify's deploy route: GET /api/v1/deploy?uuid=<uuid>&force=true with a bearer token.

#include <doctest/doctest.h>

#include "native/restart/deploy_target.h"
#include "tests/native/local_http_server.h"

using core::status::DeployRestartTarget;
using native::restart::deploy_message;
using native::restart::deploy_url;
using native::restart::fire_deploy;
using native::restart::RestartOutcome;

namespace {

const std::string kToken = "7|KhU2xZpQe0deploytoken";
const std::string kUuid = "wg4kw0gws04sw8kw8s4scwg0";

// Coolify's answers (app/Http/Controllers/Api/DeployController.php): 401 `Unauthenticated.` for a bad
// token, 404 `No resources found.` for an unknown uuid, 400 without force=true here (the real route
// accepts it; this server insists, so the test proves it is sent), else 200 with the queued deployments.
struct DeployServer {
  test_http::LocalHttpServer http;
  std::string echo_message;  // when set, the 200 message (to prove the detail is redacted)
  DeployServer() {
    http.server().Get("/api/v1/deploy", [this](const httplib::Request& request, httplib::Response& response) {
      http.record(request);
      if (request.get_header_value("Authorization") != "Bearer " + kToken) {
        response.status = 401;
        response.set_content(R"({"message":"Unauthenticated."})", "application/json");
      } else if (request.get_param_value("uuid") != kUuid) {
        response.status = 404;
        response.set_content(R"({"message":"No resources found."})", "application/json");
      } else if (request.get_param_value("force") != "true") {
        response.status = 400;
        response.set_content(R"({"message":"force=true expected"})", "application/json");
      } else {
        const std::string message =
            echo_message.empty() ? "Application api deployment queued." : echo_message;
        response.set_content(R"({"deployments":[{"message":")" + message + R"(","resource_uuid":")" + kUuid +
                                 R"(","deployment_uuid":"t4wcc4o8k0o0wgc8kk0gw8cs"}]})",
                             "application/json");
      }
    });
    http.start();
  }
};

DeployRestartTarget target_for(const DeployServer& server) {
  DeployRestartTarget target;
  target.baseUrl = "http://127.0.0.1:" + std::to_string(server.http.port());
  target.uuid = kUuid;
  target.apiToken = kToken;
  target.timeoutMs = 5000;
  return target;
}

}  // namespace

TEST_SUITE("restart") {
  TEST_CASE("deploy target: the deploy route with uuid, force=true and the bearer token") {
    DeployServer server;
    const RestartOutcome outcome = fire_deploy(target_for(server));
    CHECK(outcome.ok);
    CHECK(outcome.detail == "HTTP 200: Application api deployment queued.");
    CHECK(outcome.durationMs < 5000);
    const auto requests = server.http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].method == "GET");
    CHECK(requests[0].path == "/api/v1/deploy");
    CHECK(requests[0].param("uuid") == kUuid);
    CHECK(requests[0].param("force") == "true");
    CHECK(requests[0].params.size() == 2);
    CHECK(requests[0].header("Authorization") == "Bearer " + kToken);
    CHECK(requests[0].header("Accept") == "application/json");
  }

  TEST_CASE("deploy target: a wrong token is refused with the platform's message") {
    DeployServer server;
    DeployRestartTarget target = target_for(server);
    target.apiToken = "7|wrong";
    const RestartOutcome outcome = fire_deploy(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "HTTP 401: Unauthenticated.");
  }

  TEST_CASE("deploy target: an unknown uuid fails") {
    DeployServer server;
    DeployRestartTarget target = target_for(server);
    target.uuid = "unknown-resource";
    const RestartOutcome outcome = fire_deploy(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail == "HTTP 404: No resources found.");
  }

  TEST_CASE("deploy target: a base URL with a trailing slash and the token echoed back") {
    DeployServer server;
    server.echo_message = "queued with token " + kToken;
    DeployRestartTarget target = target_for(server);
    target.baseUrl += "/";
    const RestartOutcome outcome = fire_deploy(target);
    CHECK(outcome.ok);
    CHECK(outcome.detail == "HTTP 200: queued with token [redacted]");
    REQUIRE(server.http.requests().size() == 1);
    CHECK(server.http.requests()[0].path == "/api/v1/deploy");
  }

  TEST_CASE("deploy target: an unreachable platform and invalid settings") {
    DeployRestartTarget target;
    target.baseUrl = "http://127.0.0.1:1";
    target.uuid = kUuid;
    target.apiToken = kToken;
    RestartOutcome outcome = fire_deploy(target);
    CHECK_FALSE(outcome.ok);
    CHECK(outcome.detail.starts_with("request failed: "));
    CHECK(outcome.detail.find(kToken) == std::string::npos);
    target.uuid = "a&force=false";
    outcome = fire_deploy(target);
    CHECK(outcome.detail == "invalid target: invalid_deploy_uuid");
  }

  TEST_CASE("deploy target: the route's URL and the message of a response") {
    DeployRestartTarget target;
    target.baseUrl = "https://coolify.example.com//";
    target.uuid = "abc-123";
    CHECK(deploy_url(target) == "https://coolify.example.com/api/v1/deploy?uuid=abc-123&force=true");
    target.baseUrl = "https://example.com/coolify";
    CHECK(deploy_url(target) == "https://example.com/coolify/api/v1/deploy?uuid=abc-123&force=true");

    CHECK(deploy_message(R"({"message":"Unauthenticated."})") == "Unauthenticated.");
    CHECK(deploy_message(R"({"deployments":[{"message":"A queued."},{"message":"B queued."},{"x":1}]})") ==
          "A queued.; B queued.");
    CHECK(deploy_message(R"({"deployments":[]})").empty());
    CHECK(deploy_message("<html>Bad gateway</html>").empty());
    CHECK(deploy_message(R"(["message"])").empty());
    CHECK(deploy_message(R"({"message":42})").empty());
  }
}
