// The probe worker in the edge: checks created through the dashboard API are probed against a local HTTP
// server at their interval on the injected clock, every verdict is stored with the check's summary, and
// edits and deletes reach the scheduler without a restart.

#include <doctest/doctest.h>
#include <httplib.h>

#include <chrono>
#include <thread>

#include "status_support.h"

using namespace status_test;
using namespace std::chrono_literals;

namespace {

// A target on a free loopback port: /ok answers 200 "all good", /fail 503.
struct Target {
  httplib::Server server;
  int port = 0;
  std::thread thread;
  Target() {
    server.Get("/ok", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("all good", "text/plain");
    });
    server.Get("/fail", [](const httplib::Request&, httplib::Response& res) {
      res.status = 503;
      res.set_content("down for repairs", "text/plain");
    });
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { server.listen_after_bind(); });
  }
  ~Target() {
    server.stop();
    thread.join();
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port) + path; }
};

edge::Config probing() {
  edge::Config c = unthrottled();
  c.status.probe_workers = 2;
  return c;
}

// Polls the check until `done` holds for it (the worker runs on real threads), up to ten seconds.
template <class Done>
core::json::object wait_for_check(StatusEdge& edge, const std::string& path, Done done) {
  core::json::object last;
  for (int i = 0; i < 100; ++i) {
    auto r = edge.get(path, edge.token);
    REQUIRE(r.status == 200);
    last = r.json.as_object();
    if (done(last)) return last;
    std::this_thread::sleep_for(100ms);
  }
  FAIL("the check never reached the expected state: " << core::to_json(last));
  return last;
}

}  // namespace

TEST_SUITE("status_probe_worker") {
  TEST_CASE("stored checks are probed at their interval and their verdicts recorded") {
    Target target;
    StatusEdge edge(probing());
    const std::string page = edge.page();
    const std::string component = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    const std::string checks = "/pages/" + page + "/components/" + component + "/checks";
    const std::string good =
        edge.create(checks, R"({"name":"Health","url":")" + target.url("/ok") +
                                R"(","intervalSeconds":30,"expectedBodyContains":"good"})");
    const std::string bad = edge.create(
        checks, R"({"name":"Orders","url":")" + target.url("/fail") + R"(","intervalSeconds":30})");

    // Nothing is due before the first grid point, at most one interval away on the injected clock.
    std::this_thread::sleep_for(300ms);
    CHECK(str(edge.get(kDash + checks + "/" + good, edge.token).json, "status") == "no-data");
    edge.clock.advance_ms(30'000);

    auto healthy = wait_for_check(edge, kDash + checks + "/" + good,
                                  [](const auto& c) { return c.at("status") == "operational"; });
    CHECK(healthy.at("lastCheckedAt").is_string());
    CHECK(healthy.at("lastLatencyMs").as_int64() >= 0);
    auto failing = wait_for_check(edge, kDash + checks + "/" + bad,
                                  [](const auto& c) { return c.at("status") == "down"; });
    CHECK(failing.at("consecutiveFailures") == 1);
    auto results = edge.get(kDash + checks + "/" + bad + "/results", edge.token);
    REQUIRE(results.status == 200);
    REQUIRE(results.json.as_array().size() == 1);
    CHECK(results.json.as_array()[0].at("reason") == "unexpected_status");
    CHECK(results.json.as_array()[0].at("httpStatus") == 503);

    // The next run comes one interval later: a second failure in a row.
    edge.clock.advance_ms(30'000);
    wait_for_check(edge, kDash + checks + "/" + bad,
                   [](const auto& c) { return c.at("consecutiveFailures") == 2; });

    // An edit reaches the worker at once: pointed at /ok, the check recovers on its next run.
    auto patched =
        edge.patch(kDash + checks + "/" + bad, R"({"url":")" + target.url("/ok") + R"("})", edge.token);
    REQUIRE(patched.status == 200);
    std::this_thread::sleep_for(300ms);
    edge.clock.advance_ms(30'000);
    wait_for_check(edge, kDash + checks + "/" + bad,
                   [](const auto& c) { return c.at("status") == "operational"; });

    // The public snapshot shows what the worker recorded.
    edge.clock.advance_ms(31'000);  // past the snapshot cache
    auto snapshot = edge.get("/api/v1/status/acme-status");
    REQUIRE(snapshot.status == 200);
    CHECK(snapshot.json.at("overall") == "operational");

    // A deleted check leaves the scheduler.
    auto& worker = *edge.server->app().status_probes;
    CHECK(worker.scheduled() == 2);
    REQUIRE(edge.del(kDash + checks + "/" + good, edge.token).status == 204);
    for (int i = 0; i < 50 && worker.scheduled() != 1; ++i) std::this_thread::sleep_for(100ms);
    CHECK(worker.scheduled() == 1);
  }

  TEST_CASE("the worker picks up checks stored before it started") {
    Target target;
    StatusEdge edge(probing());
    const std::string page = edge.page();
    const std::string component = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    const std::string check = edge.create("/pages/" + page + "/components/" + component + "/checks",
                                          R"({"name":"Health","url":")" + target.url("/ok") + R"("})");
    auto& worker = *edge.server->app().status_probes;
    // A reconcile from the index alone (as at start): the check is there, and a second one changes nothing.
    REQUIRE(worker.sync().ok());
    CHECK(worker.scheduled() == 1);
    REQUIRE(worker.sync().ok());
    CHECK(worker.scheduled() == 1);
  }
}
