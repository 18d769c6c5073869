// Deliveries to subscribers are at least once across kill -9 (docs/status-subscribers.md, "Delivery"):
// events wait in the outbox of a stopped edge; the edge executable starts, fans them out to three webhook
// subscribers whose endpoint answers 503 slowly, and gets SIGKILL while attempts are failing, waiting for a
// retry or in flight. After a restart with the endpoint healthy, every (event, subscriber) pair reaches the
// endpoint with a valid signature.

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "core/json.h"
#include "core/status/webhook.h"
#include "edge/app.h"
#include "edge/status/status_events.h"
#include "edge/status/status_store.h"
#include "edge_process.h"
#include "native/os/system_random.h"
#include "test_edge.h"

namespace {
namespace json = core::json;
using testing::client_for;
using testing::parse_object;

constexpr int kEvents = 100;
constexpr int kSubscribers = 3;

// 503 after 100 ms while unhealthy; 204 at once when healthy, noting (path, data.n) of signed bodies.
struct Receiver {
  httplib::Server server;
  std::thread thread;
  int port = 0;
  std::atomic<bool> healthy{false};
  std::atomic<int> refused{0};
  std::mutex mutex;
  std::map<std::string, std::string> secrets;  // path -> management token
  std::set<std::pair<std::string, std::int64_t>> accepted;
  int bad_signatures = 0;

  Receiver() {
    server.Post("/.*", [this](const httplib::Request& req, httplib::Response& res) {
      if (!healthy) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ++refused;
        res.status = 503;
        return;
      }
      std::lock_guard lock(mutex);
      if (!core::status::verify_webhook(req.get_header_value("X-Service-Signature"), req.body,
                                        secrets[req.path])
               .ok()) {
        ++bad_signatures;
        res.status = 400;
        return;
      }
      auto body = core::parse_json_object(req.body);
      if (body) accepted.emplace(req.path, body->at("data").at("n").as_int64());
      res.status = 204;
    });
    port = server.bind_to_any_port("127.0.0.1");
    thread = std::thread([this] { server.listen_after_bind(); });
  }
  ~Receiver() {
    server.stop();
    thread.join();
  }
};

}  // namespace

TEST_SUITE("status_deliveries_crash") {
  TEST_CASE("kill -9 during deliveries loses none: every event reaches every subscriber after a restart") {
    testing::TempDir dir;
    const std::string data = dir.path + "/data";
    std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + data + " ";
    REQUIRE(testing::run(admin + "company create --slug hooks --name Hooks").exit_code == 0);
    auto made = testing::run(admin + "token create --company hooks --name api --permission status.manage");
    REQUIRE(made.exit_code == 0);
    const std::string token(parse_object(made.out).at("token").as_string());
    Receiver receiver;
    REQUIRE(receiver.port > 0);
    const std::vector<std::string> flags = {"--rate-limit",
                                            "1000000/1s",
                                            "--status-subscribe-rate-limit",
                                            "1000000/1s",
                                            "--status-probe-workers",
                                            "0",
                                            "--status-subscriber-poll-ms",
                                            "50",
                                            "--status-delivery-retry-base-ms",
                                            "200",
                                            "--status-delivery-retry-max-ms",
                                            "400",
                                            "--status-delivery-max-attempts",
                                            "1000"};
    std::string page_id, company_id;
    {
      testing::EdgeProcess edge(dir.path, data, flags);
      auto c = client_for(edge.port, token);
      auto page =
          c.Post("/api/v1/dashboard/companies/hooks/pages",
                 R"({"name":"Hooks","slug":"hooks-status","subscribersEnabled":true})", "application/json");
      REQUIRE(page);
      REQUIRE(page->status == 201);
      page_id = std::string(parse_object(page->body).at("id").as_string());
      for (int i = 0; i < kSubscribers; ++i) {
        const std::string path = "/s" + std::to_string(i);
        auto sub = c.Post("/api/v1/status/hooks-status/subscribe",
                          R"({"type":"webhook","webhookUrl":"http://127.0.0.1:)" +
                              std::to_string(receiver.port) + path + R"("})",
                          "application/json");
        REQUIRE(sub);
        REQUIRE(sub->status == 201);
        std::lock_guard lock(receiver.mutex);
        receiver.secrets[path] = std::string(parse_object(sub->body).at("managementToken").as_string());
      }
      CHECK(edge.stop(SIGTERM) != -1);
    }

    // The events enter the outbox of the stopped edge, as incident and maintenance changes write them.
    {
      edge::Config config;
      config.data_dir = data;
      core::ManualClock clock{std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count()};
      native::SystemRandom random;
      auto app = edge::open_app(config, clock, random);
      REQUIRE(app);
      auto page = edge::status::page_by_slug(**app, "hooks-status");
      REQUIRE(page);
      company_id = page->companyId;
      auto st = (*app)->kv->write([&](store::WriteTxn& txn) -> core::Status {
        for (int n = 0; n < kEvents; ++n) {
          edge::status::StatusEvent e{"incident.updated",     company_id,    page_id, {},
                                      json::object{{"n", n}}, clock.now_ms()};
          edge::status::enqueue_event(**app, txn, e);
        }
        return {};
      });
      REQUIRE(st.ok());
    }

    {
      testing::EdgeProcess edge(dir.path, data, flags);
      // Killed while attempts fail, wait for their retry, or are in flight.
      for (int i = 0; i < 2000 && receiver.refused < 30; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      REQUIRE(receiver.refused >= 30);
      edge.stop(SIGKILL);
    }
    {
      std::lock_guard lock(receiver.mutex);
      REQUIRE(receiver.accepted.empty());
    }

    receiver.healthy = true;
    testing::EdgeProcess edge(dir.path, data, flags);
    for (int i = 0; i < 600; ++i) {
      {
        std::lock_guard lock(receiver.mutex);
        if (receiver.accepted.size() == kEvents * kSubscribers) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    // The delivery logs agree: every delivery delivered, and some of them had failed before the kill.
    auto c = client_for(edge.port, token);
    const std::string subscribers = "/api/v1/dashboard/companies/hooks/pages/" + page_id + "/subscribers";
    auto list = c.Get(subscribers);
    REQUIRE(list);
    REQUIRE(list->status == 200);
    auto subs = core::parse_json(list->body);
    REQUIRE(subs);
    REQUIRE(subs->as_array().size() == kSubscribers);
    std::size_t delivered = 0, failed_first = 0;
    // The last attempts are recorded just after the receiver answered them.
    for (int i = 0; i < 100 && delivered < kEvents * kSubscribers; ++i) {
      if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      delivered = failed_first = 0;
      for (const auto& sub : subs->as_array()) {
        auto log = c.Get(subscribers + "/" + std::string(sub.at("id").as_string()) + "/deliveries?limit=200");
        REQUIRE(log);
        auto entries = core::parse_json(log->body);
        REQUIRE(entries);
        for (const auto& d : entries->as_array()) {
          delivered += d.at("status") == json::value("delivered");
          failed_first += d.at("history").as_array().front().at("status") == json::value(503);
        }
      }
    }
    CHECK(delivered == kEvents * kSubscribers);
    CHECK(failed_first > 0);
    std::lock_guard lock(receiver.mutex);
    CHECK(receiver.bad_signatures == 0);
    CHECK(receiver.accepted.size() == kEvents * kSubscribers);
    for (int s = 0; s < kSubscribers; ++s)
      for (int n = 0; n < kEvents; ++n)
        CHECK_MESSAGE(receiver.accepted.count({"/s" + std::to_string(s), n}) == 1, "s" << s << " n" << n);
  }
}
