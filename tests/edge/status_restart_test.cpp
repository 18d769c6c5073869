// Restart targets bound to a check (docs/status-restart.md): HTTP and deploy targets fired by probe
// verdicts recorded through append_check_result with the manual clock's times, against local HTTP servers
// that record every request; threshold, cooldown, the manual test fire, the check's history.

#include <doctest/doctest.h>

#include <atomic>

#include "edge/status/restart_history.h"
#include "status_restart_support.h"
#include "tests/native/local_http_server.h"

using namespace restart_test;

namespace {

const std::string kAuthValue = "Bearer restart-header-secret-4711";

// An HTTP restart endpoint: POST /restart answers `answer` (200 unless changed).
struct RestartEndpoint {
  test_http::LocalHttpServer http;
  std::atomic<int> answer{200};
  RestartEndpoint() {
    http.server().Post("/restart", [this](const httplib::Request& req, httplib::Response& res) {
      http.record(req);
      res.status = answer.load();
      res.set_content(R"({"restarting":true})", "application/json");
    });
    http.start();
  }
  std::string url() const { return http.url("/restart"); }
};

std::string http_target_body(const std::string& check_id, const std::string& url, int threshold,
                             int cooldown_seconds) {
  return R"({"name":"Restart API","type":"http","checkId":")" + check_id + R"(","threshold":)" +
         std::to_string(threshold) + R"(,"cooldownSeconds":)" + std::to_string(cooldown_seconds) +
         R"(,"settings":{"url":")" + url + R"(","authHeaderValue":")" + kAuthValue +
         R"(","body":"{\"service\":\"api\"}","timeoutMs":5000}})";
}

// Coolify's deploy route: GET /api/v1/deploy?uuid=&force=true with a bearer token.
struct DeployPlatform {
  test_http::LocalHttpServer http;
  DeployPlatform() {
    http.server().Get("/api/v1/deploy", [this](const httplib::Request& req, httplib::Response& res) {
      http.record(req);
      if (req.get_header_value("Authorization") != "Bearer deploy-token-0815") {
        res.status = 401;
        res.set_content(R"({"message":"Unauthenticated."})", "application/json");
        return;
      }
      res.set_content(R"({"deployments":[{"message":"Application api deployment queued.","resource_uuid":")" +
                          req.get_param_value("uuid") + R"(","deployment_uuid":"d1"}]})",
                      "application/json");
    });
    http.start();
  }
};

}  // namespace

TEST_SUITE("status_restart") {
  TEST_CASE("an HTTP target fires after N consecutive failures, then at most once per cooldown") {
    RestartEndpoint endpoint;
    RestartEdge edge;
    const std::string id = edge.add_target(http_target_body(edge.check_id, endpoint.url(), 3, 600));
    const std::int64_t t0 = testing::TestEdge::kStart;

    // Two failures, a recovery, two failures: never three in a row.
    edge.verdict(t0, kDown);
    edge.verdict(t0 + 1 * kMinute, kDown);
    edge.verdict(t0 + 2 * kMinute, kUp);
    edge.verdict(t0 + 3 * kMinute, kDown);
    edge.verdict(t0 + 4 * kMinute, kDown);
    CHECK(endpoint.http.requests().empty());
    CHECK(edge.firings().empty());
    auto target = edge.get(edge.target(id), edge.token);
    CHECK(target.json.at("consecutiveFailures") == 2);
    CHECK(target.json.at("lastFiredAt").is_null());

    // The third failure in a row fires.
    edge.verdict(t0 + 5 * kMinute, kDown);
    auto requests = endpoint.http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].method == "POST");
    CHECK(requests[0].header("Authorization") == kAuthValue);  // unsealed for the firing
    CHECK(requests[0].body == R"({"service":"api"})");
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    const json::object first = history[0].as_object();
    CHECK(first.at("status") == "succeeded");
    CHECK(text(first.at("targetId")) == id);
    CHECK(first.at("targetName") == "Restart API");
    CHECK(first.at("type") == "http");
    CHECK(first.at("manual") == false);
    CHECK(first.at("consecutiveFailures") == 3);
    CHECK(text(first.at("firedAt")) == core::format_timestamp(t0 + 5 * kMinute));
    CHECK(first.at("detail") == "HTTP 200");
    CHECK(first.at("httpStatus") == 200);
    CHECK(first.at("exitStatus").is_null());
    CHECK(first.at("durationMs").as_int64() >= 0);
    CHECK(first.at("finishedAt").is_string());
    CHECK_FALSE(first.contains("companyId"));
    target = edge.get(edge.target(id), edge.token);
    CHECK(text(target.json.at("lastFiredAt")) == core::format_timestamp(t0 + 5 * kMinute));

    // Still down within the cooldown: no second firing, even after a recovery and three new failures.
    edge.verdict(t0 + 6 * kMinute, kDown);
    edge.verdict(t0 + 7 * kMinute, kUp);
    edge.verdict(t0 + 8 * kMinute, kDown);
    edge.verdict(t0 + 9 * kMinute, kDown);
    edge.verdict(t0 + 14 * kMinute, kDown);
    CHECK(endpoint.http.requests().size() == 1);

    // Exactly one cooldown (600 s) after the first firing it fires again.
    edge.verdict(t0 + 15 * kMinute, kDown);
    CHECK(endpoint.http.requests().size() == 2);
    history = edge.firings();
    REQUIRE(history.size() == 2);
    CHECK(text(history[0].at("firedAt")) == core::format_timestamp(t0 + 15 * kMinute));  // newest first
    CHECK(history[1].at("id") == first.at("id"));

    // The target's own history is the same list; limit takes the newest.
    auto own = edge.get(edge.target(id) + "/firings?limit=1", edge.token);
    REQUIRE(own.status == 200);
    REQUIRE(own.json.as_array().size() == 1);
    CHECK(own.json.as_array()[0].at("id") == history[0].at("id"));
    CHECK(edge.get(edge.target(id) + "/firings?limit=0", edge.token).error() == "invalid_field");
  }

  TEST_CASE("a late, older result does not count; cooldown 0 fires on every failure past the threshold") {
    RestartEndpoint endpoint;
    RestartEdge edge;
    edge.add_target(http_target_body(edge.check_id, endpoint.url(), 2, 0));
    const std::int64_t t0 = testing::TestEdge::kStart;
    edge.verdict(t0 + kMinute, kDown);
    edge.verdict(t0, kDown);  // older than the newest: stored, but no verdict hook
    CHECK(endpoint.http.requests().empty());
    edge.verdict(t0 + 2 * kMinute, kDown);
    edge.verdict(t0 + 3 * kMinute, kDown);
    CHECK(endpoint.http.requests().size() == 2);
  }

  TEST_CASE("a target answering outside its expected range is a failed firing with its status") {
    RestartEndpoint endpoint;
    endpoint.answer = 503;
    RestartEdge edge;
    edge.add_target(http_target_body(edge.check_id, endpoint.url(), 1, 600));
    edge.verdict(testing::TestEdge::kStart, kDown);
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK(history[0].at("status") == "failed");
    CHECK(history[0].at("detail") == "HTTP 503 (expected 200-299)");
    CHECK(history[0].at("httpStatus") == 503);
  }

  TEST_CASE("a deploy target calls the platform's deploy route with uuid, force=true and its token") {
    DeployPlatform platform;
    RestartEdge edge;
    const std::string body = R"({"name":"Redeploy","type":"deploy","checkId":")" + edge.check_id +
                             R"(","threshold":2,"settings":{"baseUrl":")" + platform.http.url("/") +
                             R"(","uuid":"api-7f3c","apiToken":"deploy-token-0815"}})";
    auto created = edge.post(edge.targets(), body, edge.token);
    REQUIRE(created.status == 201);
    CHECK(created.json.at("cooldownSeconds") == 600);  // the spec's default
    CHECK(created.json.at("settings").at("hasApiToken") == true);
    CHECK_FALSE(created.json.at("settings").as_object().contains("apiToken"));

    edge.verdict(testing::TestEdge::kStart, kDown);
    CHECK(platform.http.requests().empty());
    edge.verdict(testing::TestEdge::kStart + kMinute, kDown);
    auto requests = platform.http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].method == "GET");
    CHECK(requests[0].path == "/api/v1/deploy");
    CHECK(requests[0].param("uuid") == "api-7f3c");
    CHECK(requests[0].param("force") == "true");
    CHECK(requests[0].header("Authorization") == "Bearer deploy-token-0815");
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK(history[0].at("status") == "succeeded");
    CHECK(history[0].at("type") == "deploy");
    CHECK(history[0].at("detail") == "HTTP 200: Application api deployment queued.");
    CHECK(history[0].at("httpStatus") == 200);

    // A wrong token: the platform's refusal is the outcome.
    auto id = str(created.json, "id");
    REQUIRE(edge.patch(edge.target(id), R"({"settings":{"apiToken":"wrong-token"}})", edge.token).status ==
            200);
    edge.verdict(testing::TestEdge::kStart + 11 * kMinute, kDown);
    history = edge.firings();
    REQUIRE(history.size() == 2);
    CHECK(history[0].at("status") == "failed");
    CHECK(history[0].at("detail") == "HTTP 401: Unauthenticated.");
  }

  TEST_CASE("the manual test fire of an HTTP target answers the outcome and records it") {
    RestartEndpoint endpoint;
    RestartEdge edge;
    const std::string id = edge.add_target(http_target_body(edge.check_id, endpoint.url(), 3, 600));
    auto fired = edge.post(edge.target(id) + "/test", "", edge.token);
    INFO(fired.body);
    REQUIRE(fired.status == 200);
    CHECK(fired.json.at("manual") == true);
    CHECK(fired.json.at("status") == "succeeded");
    CHECK(fired.json.at("httpStatus") == 200);
    CHECK(fired.json.at("detail") == "HTTP 200");
    CHECK(fired.json.at("consecutiveFailures").is_null());
    CHECK(text(fired.json.at("firedAt")) == core::format_timestamp(edge.clock.now_ms()));
    REQUIRE(endpoint.http.requests().size() == 1);
    CHECK(endpoint.http.requests()[0].header("Authorization") == kAuthValue);
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK(history[0].at("id") == fired.json.at("id"));
    CHECK(history[0].at("manual") == true);
    // It leaves the automatic firing alone: no cooldown started.
    CHECK(edge.get(edge.target(id), edge.token).json.at("lastFiredAt").is_null());

    endpoint.answer = 500;
    fired = edge.post(edge.target(id) + "/test", "", edge.token);
    REQUIRE(fired.status == 200);
    CHECK(fired.json.at("status") == "failed");
    CHECK(fired.json.at("detail") == "HTTP 500 (expected 200-299)");

    // A view token cannot fire; other types have no test fire; nothing is recorded for either.
    const std::string viewer = edge.token_with("acme", {"status.view"});
    CHECK(edge.post(edge.target(id) + "/test", "", viewer).error() == "forbidden");
    const std::string deploy =
        edge.add_target(R"({"name":"Redeploy","type":"deploy","checkId":")" + edge.check_id +
                        R"(","settings":{"baseUrl":"http://127.0.0.1:9","uuid":"x","apiToken":"t"}})");
    auto refused = edge.post(edge.target(deploy) + "/test", "", edge.token);
    CHECK(refused.status == 422);
    CHECK(refused.error() == "test_fire_not_supported");
    CHECK(edge.firings().size() == 2);
    CHECK(edge.post(edge.target("rst_nothere") + "/test", "", edge.token).error() ==
          "restart_target_not_found");
  }

  TEST_CASE("create, list, read, patch and delete; validation errors change nothing") {
    RestartEndpoint endpoint;
    RestartEdge edge;
    const std::string other_check =
        edge.create(edge.checks_path(), R"({"name":"Other","url":"http://127.0.0.1:9/"})");
    const std::string other_page = edge.page("other-status");
    const std::string other_component =
        edge.create("/pages/" + other_page + "/components", R"({"name":"X"})");
    const std::string foreign_check =
        edge.create("/pages/" + other_page + "/components/" + other_component + "/checks",
                    R"({"name":"Y","url":"http://127.0.0.1:9/"})");
    const std::string chk = edge.check_id;
    const std::string url = endpoint.url();
    struct Bad {
      std::string body, code;
    };
    const Bad bad[] = {
        {R"({"type":"http","checkId":")" + chk + R"(","settings":{"url":")" + url + R"("}})",
         "missing_field"},
        {R"({"name":"A","checkId":")" + chk + R"(","settings":{"url":")" + url + R"("}})", "missing_field"},
        {R"({"name":"A","type":"http","settings":{"url":")" + url + R"("}})", "missing_field"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"("})", "missing_field"},
        {R"({"name":"A","type":"ftp","checkId":")" + chk + R"(","settings":{}})", "invalid_target_type"},
        {R"({"name":"A","type":"HTTP","checkId":")" + chk + R"(","settings":{}})", "invalid_target_type"},
        {R"({"name":"A","type":"http","checkId":"chk_unknown","settings":{"url":")" + url + R"("}})",
         "invalid_check_id"},
        {R"({"name":"A","type":"http","checkId":")" + foreign_check + R"(","settings":{"url":")" + url +
             R"("}})",
         "invalid_check_id"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","threshold":0,"settings":{"url":")" + url +
             R"("}})",
         "invalid_threshold"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","threshold":101,"settings":{"url":")" + url +
             R"("}})",
         "invalid_threshold"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","cooldownSeconds":-1,"settings":{"url":")" +
             url + R"("}})",
         "invalid_cooldown"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","threshold":"3","settings":{"url":")" + url +
             R"("}})",
         "invalid_field"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","settings":"x"})", "invalid_field"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","settings":{"url":"ftp://x/"}})",
         "invalid_url"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","settings":{"url":")" + url +
             R"(","method":"PUT"}})",
         "invalid_method"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","settings":{"url":")" + url +
             R"(","timeoutMs":0}})",
         "invalid_timeout"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","settings":{"url":")" + url +
             R"(","timeoutMs":"5"}})",
         "invalid_field"},
        {R"({"name":"A","type":"http","checkId":")" + chk + R"(","settings":{"url":")" + url +
             R"(","expectedStatusMin":300,"expectedStatusMax":200}})",
         "invalid_status_range"},
        {R"({"name":"A","type":"ssh","checkId":")" + chk +
             R"(","settings":{"host":"127.0.0.1","user":"root","command":"true","trustOnFirstUse":true}})",
         "invalid_private_key"},
        {R"({"name":"A","type":"ssh","checkId":")" + chk +
             R"(","settings":{"host":"127.0.0.1","port":"22"}})",
         "invalid_field"},
        {R"({"name":"A","type":"deploy","checkId":")" + chk +
             R"(","settings":{"baseUrl":"http://x","uuid":"a,b","apiToken":"t"}})",
         "invalid_deploy_uuid"},
        {R"({"name":"A","type":"deploy","checkId":")" + chk +
             R"(","settings":{"baseUrl":"http://x","uuid":"a"}})",
         "invalid_api_token"},
        {R"({"name":"","type":"http","checkId":")" + chk + R"(","settings":{"url":")" + url + R"("}})",
         "invalid_field"},
        {R"(not json)", "invalid_json"},
        {R"([1])", "invalid_body"},
    };
    for (const Bad& b : bad) {
      auto r = edge.post(edge.targets(), b.body, edge.token);
      INFO(b.body << " -> " << r.body);
      CHECK(r.error() == b.code);
      CHECK(r.status == (b.code == "invalid_json" || b.code == "invalid_body" ? 400 : 422));
    }
    auto list = edge.get(edge.targets(), edge.token);
    REQUIRE(list.status == 200);
    CHECK(list.json.as_array().empty());
    CHECK(list.header("X-Total-Count") == "0");

    // A good one, with defaults filled in.
    auto created = edge.post(edge.targets(),
                             R"({"name":" Restart ","type":"http","checkId":")" + chk +
                                 R"(","settings":{"url":")" + url + R"("}})",
                             edge.token);
    REQUIRE(created.status == 201);
    const std::string id = str(created.json, "id");
    CHECK(id.rfind("rst_", 0) == 0);
    CHECK(created.json.at("name") == "Restart");
    CHECK(text(created.json.at("pageId")) == edge.page_id);
    CHECK(text(created.json.at("checkId")) == chk);
    CHECK(created.json.at("type") == "http");
    CHECK(created.json.at("threshold") == 3);
    CHECK(created.json.at("cooldownSeconds") == 600);
    CHECK(created.json.at("consecutiveFailures") == 0);
    CHECK(created.json.at("lastFiredAt").is_null());
    const json::object expected_settings{{"method", "POST"},
                                         {"url", url},
                                         {"authHeaderName", "Authorization"},
                                         {"hasAuthHeader", false},
                                         {"body", ""},
                                         {"contentType", "application/json"},
                                         {"expectedStatusMin", 200},
                                         {"expectedStatusMax", 299},
                                         {"timeoutMs", 10000}};
    CHECK(created.json.at("settings").as_object() == expected_settings);
    CHECK_FALSE(created.json.as_object().contains("sealed"));
    auto read = edge.get(edge.target(id), edge.token);
    REQUIRE(read.status == 200);
    CHECK(read.json == created.json);
    list = edge.get(edge.targets(), edge.token);
    REQUIRE(list.json.as_array().size() == 1);
    CHECK(list.json.as_array()[0] == created.json);
    CHECK(edge.get(edge.targets() + "?checkId=" + other_check, edge.token).json.as_array().empty());

    // Bad patches change nothing.
    const Bad bad_patches[] = {
        {R"({"type":"ssh"})", "invalid_field"},
        {R"({"checkId":")" + foreign_check + R"("})", "invalid_check_id"},
        {R"({"threshold":0})", "invalid_threshold"},
        {R"({"cooldownSeconds":86401})", "invalid_cooldown"},
        {R"({"settings":{"url":"not a url"}})", "invalid_url"},
        {R"({"settings":{"method":"GET","body":"x"}})", "invalid_target_body"},
        {R"({"name":5})", "invalid_field"},
    };
    for (const Bad& b : bad_patches) {
      auto r = edge.patch(edge.target(id), b.body, edge.token);
      INFO(b.body << " -> " << r.body);
      CHECK(r.status == 422);
      CHECK(r.error() == b.code);
    }
    CHECK(edge.get(edge.target(id), edge.token).json == created.json);

    // A good patch merges its settings into the stored ones and may move the target to another check.
    auto patched = edge.patch(edge.target(id),
                              R"({"name":"Restart 2","threshold":5,"checkId":")" + other_check +
                                  R"(","settings":{"method":"GET","timeoutMs":2000}})",
                              edge.token);
    REQUIRE(patched.status == 200);
    CHECK(patched.json.at("name") == "Restart 2");
    CHECK(patched.json.at("threshold") == 5);
    CHECK(text(patched.json.at("checkId")) == other_check);
    CHECK(patched.json.at("settings").at("method") == "GET");
    CHECK(patched.json.at("settings").at("timeoutMs") == 2000);
    CHECK(text(patched.json.at("settings").at("url")) == url);
    CHECK(edge.get(edge.targets() + "?checkId=" + other_check, edge.token).json.as_array().size() == 1);
    // Bound to the other check now: failures of the first one no longer count.
    for (int i = 0; i < 5; ++i) edge.verdict(testing::TestEdge::kStart + i * kMinute, kDown);
    CHECK(endpoint.http.requests().empty());

    // Unknown ids and ids that cannot be key segments are 404.
    CHECK(edge.get(edge.target("rst_nothere"), edge.token).error() == "restart_target_not_found");
    CHECK(edge.patch(edge.target("rst_nothere"), "{}", edge.token).error() == "restart_target_not_found");
    CHECK(edge.get(kDash + "/pages/pg_nothere/restart-targets", edge.token).error() == "page_not_found");

    auto deleted = edge.del(edge.target(id), edge.token);
    CHECK(deleted.status == 204);
    CHECK(edge.get(edge.target(id), edge.token).status == 404);
    CHECK(edge.del(edge.target(id), edge.token).error() == "restart_target_not_found");
    CHECK(edge.get(edge.targets(), edge.token).json.as_array().empty());
  }

  TEST_CASE("secrets are sealed at rest and never answered") {
    RestartEndpoint endpoint;
    RestartEdge edge;
    const std::string pem =
        "-----BEGIN OPENSSH PRIVATE "
        "KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
        "QyNTUxOQAAACDsecretkeymaterialthatmustnotleak0123456789\n-----END OPENSSH PRIVATE KEY-----\n";
    const std::string passphrase = "passphrase-that-must-not-leak-42";
    const std::string token = "deploy-api-token-that-must-not-leak-99";
    const std::string http_id = edge.add_target(http_target_body(edge.check_id, endpoint.url(), 1, 600));
    auto ssh =
        edge.post(edge.targets(),
                  R"({"name":"Box","type":"ssh","checkId":")" + edge.check_id +
                      R"(","settings":{"host":"127.0.0.1","user":"root","command":"systemctl restart api",)"
                      R"("trustOnFirstUse":true,"privateKeyPem":)" +
                      quoted(pem) + R"(,"passphrase":")" + passphrase + R"("}})",
                  edge.token);
    INFO(ssh.body);
    REQUIRE(ssh.status == 201);
    CHECK(ssh.json.at("settings").at("hasPrivateKey") == true);
    CHECK(ssh.json.at("settings").at("hasPassphrase") == true);
    auto deploy = edge.post(edge.targets(),
                            R"({"name":"Redeploy","type":"deploy","checkId":")" + edge.check_id +
                                R"(","settings":{"baseUrl":"http://127.0.0.1:9","uuid":"u1","apiToken":")" +
                                token + R"("}})",
                            edge.token);
    REQUIRE(deploy.status == 201);

    const std::string secrets[] = {kAuthValue, "restart-header-secret-4711",
                                   "secretkeymaterialthatmustnotleak", passphrase, token};
    auto http = edge.get(edge.target(http_id), edge.token);
    CHECK(http.json.at("settings").at("hasAuthHeader") == true);
    CHECK_FALSE(http.json.at("settings").as_object().contains("authHeaderValue"));
    auto list = edge.get(edge.targets(), edge.token);
    REQUIRE(list.json.as_array().size() == 3);
    for (const auto* body : {&ssh.body, &deploy.body, &http.body, &list.body})
      for (const auto& secret : secrets) CHECK(body->find(secret) == std::string::npos);

    // A patch without a secret keeps the stored one (the firing still sends the header); null clears it.
    auto renamed =
        edge.patch(edge.target(http_id), R"({"name":"Renamed","settings":{"timeoutMs":4000}})", edge.token);
    REQUIRE(renamed.status == 200);
    CHECK(renamed.json.at("settings").at("hasAuthHeader") == true);
    edge.verdict(testing::TestEdge::kStart, kDown);
    REQUIRE(endpoint.http.requests().size() == 1);
    CHECK(endpoint.http.requests()[0].header("Authorization") == kAuthValue);
    auto history = edge.firings();
    REQUIRE(history.size() >= 1);
    for (const auto& secret : secrets) CHECK(core::to_json(history).find(secret) == std::string::npos);
    auto cleared = edge.patch(edge.target(http_id), R"({"settings":{"authHeaderValue":null}})", edge.token);
    REQUIRE(cleared.status == 200);
    CHECK(cleared.json.at("settings").at("hasAuthHeader") == false);
    auto ssh_patched =
        edge.patch(edge.target(str(ssh.json, "id")), R"({"settings":{"passphrase":null}})", edge.token);
    REQUIRE(ssh_patched.status == 200);
    CHECK(ssh_patched.json.at("settings").at("hasPrivateKey") == true);
    CHECK(ssh_patched.json.at("settings").at("hasPassphrase") == false);

    // Not in the LMDB file in clear (every commit is in the file when write() returns).
    const std::string bytes = edge.store_bytes();
    REQUIRE(bytes.find(edge.check_id) != std::string::npos);  // the file is the store's
    for (const auto& secret : secrets) CHECK_MESSAGE(bytes.find(secret) == std::string::npos, secret);
  }

  TEST_CASE("another company's target, page and check are 404") {
    RestartEndpoint endpoint;
    RestartEdge edge;
    const std::string id = edge.add_target(http_target_body(edge.check_id, endpoint.url(), 1, 600));
    const std::string globex = edge.token_with("globex", {"status.manage"});
    const std::string theirs = "/api/v1/dashboard/companies/globex/pages/";
    // acme's page under globex's name: the page is not found.
    const std::string via_page = theirs + edge.page_id + "/restart-targets/" + id;
    CHECK(edge.get(via_page, globex).error() == "page_not_found");
    CHECK(edge.patch(via_page, R"({"name":"x"})", globex).error() == "page_not_found");
    CHECK(edge.del(via_page, globex).error() == "page_not_found");
    CHECK(edge.post(via_page + "/test", "", globex).error() == "page_not_found");
    // acme's target under globex's own page: the target is not found.
    auto page =
        edge.post(theirs.substr(0, theirs.size() - 1), R"({"name":"Globex","slug":"globex-status"})", globex);
    REQUIRE(page.status == 201);
    const std::string own = theirs + str(page.json, "id") + "/restart-targets";
    for (auto r : {edge.get(own + "/" + id, globex), edge.patch(own + "/" + id, R"({"name":"x"})", globex),
                   edge.del(own + "/" + id, globex), edge.post(own + "/" + id + "/test", "", globex),
                   edge.get(own + "/" + id + "/firings", globex)}) {
      CHECK(r.status == 404);
      CHECK(r.error() == "restart_target_not_found");
    }
    CHECK(edge.get(own, globex).json.as_array().empty());
    // Binding to acme's check from globex's page is refused.
    auto bound = edge.post(own,
                           R"({"name":"x","type":"http","checkId":")" + edge.check_id +
                               R"(","settings":{"url":")" + endpoint.url() + R"("}})",
                           globex);
    CHECK(bound.error() == "invalid_check_id");
    // acme's target is untouched and still fires.
    CHECK(edge.get(edge.target(id), edge.token).json.at("name") == "Restart API");
    edge.verdict(testing::TestEdge::kStart, kDown);
    CHECK(endpoint.http.requests().size() == 1);
  }

  TEST_CASE("deleting a check, a component or a page removes its targets, their state and the history") {
    RestartEndpoint endpoint;
    RestartEdge edge;
    const std::string second_component =
        edge.create("/pages/" + edge.page_id + "/components", R"({"name":"Web"})");
    const std::string second_check =
        edge.create("/pages/" + edge.page_id + "/components/" + second_component + "/checks",
                    R"({"name":"Web","url":"http://127.0.0.1:9/"})");
    const std::string first = edge.add_target(http_target_body(edge.check_id, endpoint.url(), 1, 600));
    const std::string second = edge.add_target(http_target_body(second_check, endpoint.url(), 1, 600));
    edge.verdict(testing::TestEdge::kStart, kDown);
    edge.result(second_check, testing::TestEdge::kStart, kDown);
    edge.drain();
    REQUIRE(endpoint.http.requests().size() == 2);

    auto& app = edge.server->app();
    // Every restart key mentioning `id` (a target's or a check's).
    auto keys_with = [&](const std::string& id) {
      std::vector<std::string> found;
      REQUIRE(app.kv
                  ->read([&](const store::ReadTxn& txn) -> core::Status {
                    for (const char* prefix :
                         {"c/", "restart-by-check/", "restart-state/", "fire/", "fire-pending/"})
                      txn.scan(app.status_table, prefix, [&](std::string_view key, std::string_view) {
                        if (key.find(id) != std::string_view::npos) found.emplace_back(key);
                        return true;
                      });
                    return {};
                  })
                  .ok());
      return found;
    };
    CHECK(keys_with(first).size() == 3);          // record, index, state
    CHECK(keys_with(edge.check_id).size() == 3);  // check record, index entry, one firing

    REQUIRE(edge.del(kDash + edge.checks_path() + "/" + edge.check_id, edge.token).status == 204);
    CHECK(edge.get(edge.target(first), edge.token).error() == "restart_target_not_found");
    CHECK(keys_with(first).empty());
    CHECK(keys_with(edge.check_id).empty());
    CHECK(keys_with(second).size() == 3);

    // A component: its check's targets go with it.
    REQUIRE(
        edge.del(kDash + "/pages/" + edge.page_id + "/components/" + second_component, edge.token).status ==
        204);
    CHECK(keys_with(second).empty());
    CHECK(keys_with(second_check).empty());

    // A page.
    const std::string third_check =
        edge.create(edge.checks_path(), R"({"name":"C","url":"http://127.0.0.1:9/"})");
    const std::string third = edge.add_target(http_target_body(third_check, endpoint.url(), 1, 600));
    edge.result(third_check, testing::TestEdge::kStart, kDown);
    edge.drain();
    CHECK(keys_with(third_check).size() == 3);  // check record, target index entry, one firing
    REQUIRE(edge.del(kDash + "/pages/" + edge.page_id, edge.token).status == 204);
    CHECK(keys_with(third).empty());
    CHECK(keys_with(third_check).empty());
  }

  TEST_CASE("a firing left pending by a stopped edge is marked interrupted at the next start, never fired") {
    RestartEndpoint endpoint;
    edge::Config no_worker = status_test::unthrottled();
    no_worker.status.restart_workers = 0;  // firings are recorded but nobody takes them
    RestartEdge edge(no_worker);
    const std::string id = edge.add_target(http_target_body(edge.check_id, endpoint.url(), 1, 600));
    edge.verdict(testing::TestEdge::kStart, kDown);
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK(history[0].at("status") == "pending");
    CHECK(history[0].at("finishedAt").is_null());

    // A second firing caught while it ran: moved to `firing` in the store as the worker does.
    auto& app = edge.server->app();
    edge.clock.advance_ms(20 * kMinute);
    edge.verdict(testing::TestEdge::kStart + 20 * kMinute, kDown);
    REQUIRE(edge.firings().size() == 2);
    REQUIRE(app.kv
                ->write([&](store::WriteTxn& txn) -> core::Status {
                  std::string key;
                  txn.scan(app.status_table, "fire/" + edge.check_id + "/",
                           [&](std::string_view k, std::string_view) {
                             key = std::string(k);  // the newest
                             return true;
                           });
                  auto firing = edge::record::get_object(txn, app.status_table, key);
                  REQUIRE(firing);
                  (*firing)["status"] = "firing";
                  edge::record::put_object(txn, app.status_table, key, *firing);
                  return {};
                })
                .ok());

    edge::Config with_worker = status_test::unthrottled();
    edge.restart(with_worker);
    edge.drain();
    history = edge.firings();
    REQUIRE(history.size() == 2);
    CHECK(history[0].at("status") == "interrupted");
    CHECK(history[0].at("detail") == "outcome unknown: the edge stopped during the firing");
    CHECK(history[1].at("status") == "interrupted");
    CHECK(history[1].at("detail") == "not fired: the edge stopped before the firing started");
    CHECK(history[1].at("finishedAt").is_string());
    CHECK(endpoint.http.requests().empty());

    // The target goes on: the next failure past the cooldown fires normally.
    edge.verdict(testing::TestEdge::kStart + 40 * kMinute, kDown);
    CHECK(endpoint.http.requests().size() == 1);
    history = edge.firings();
    REQUIRE(history.size() == 3);
    CHECK(history[0].at("status") == "succeeded");
    CHECK(edge.get(edge.target(id), edge.token).status == 200);
  }
  TEST_CASE("a target deleted before its firing starts is a failed firing, never sent") {
    RestartEndpoint endpoint;
    edge::Config no_worker = status_test::unthrottled();
    no_worker.status.restart_workers = 0;
    RestartEdge edge(no_worker);
    const std::string id = edge.add_target(http_target_body(edge.check_id, endpoint.url(), 1, 600));
    edge.verdict(testing::TestEdge::kStart, kDown);
    REQUIRE(edge.del(edge.target(id), edge.token).status == 204);
    // What a worker thread would take: the pending entry's firing.
    auto& app = edge.server->app();
    edge::status::RestartJob job;
    job.checkId = edge.check_id;
    REQUIRE(app.kv
                ->read([&](const store::ReadTxn& txn) -> core::Status {
                  const std::string prefix = "fire-pending/" + edge.check_id + "/";
                  txn.scan(app.status_table, prefix, [&](std::string_view key, std::string_view value) {
                    job.firingId = std::string(key.substr(prefix.size()));
                    job.firingKey = edge::record::str(*core::parse_json_object(value), "key");
                    return true;
                  });
                  return {};
                })
                .ok());
    REQUIRE_FALSE(job.firingId.empty());
    auto done = edge::status::execute_firing(app, job);
    REQUIRE(done.ok());
    REQUIRE(done->has_value());
    CHECK((**done).at("status") == "failed");
    CHECK((**done).at("detail") == "not fired: the target was deleted");
    CHECK(endpoint.http.requests().empty());
    // Executed once: a second attempt leaves it as it is.
    auto again = edge::status::execute_firing(app, job);
    REQUIRE(again.ok());
    CHECK((**again).at("detail") == "not fired: the target was deleted");
    auto history = edge.firings();
    REQUIRE(history.size() == 1);
    CHECK(history[0].at("status") == "failed");
  }
}
