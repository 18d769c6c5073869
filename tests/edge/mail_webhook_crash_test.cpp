// Webhook deliveries are at least once across kill -9 (docs/mail-api.md, "Webhooks"): an edge process
// stores events (each accepted send is a `queued` event) while its webhook endpoint answers 503 slowly, so
// attempts are failing, waiting for a retry or in flight when the process gets SIGKILL. After a restart, with
// the endpoint healthy, every stored event reaches it with a 2xx, under the event id it was stored with, and
// every delivery record ends `delivered`.

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "../native/dnsmasq_zone.h"
#include "core/json.h"
#include "edge_process.h"
#include "test_edge.h"

TEST_SUITE_BEGIN("mail");

namespace {
namespace json = core::json;
using testing::client_for;
using testing::parse_object;

std::string data_str(const json::object& envelope, const char* key) {
  return std::string(envelope.at("data").at(key).as_string());
}

// The receiver: 503 after 100 ms while unhealthy, 204 at once when healthy; notes the event ids it took.
struct Receiver {
  httplib::Server server;
  std::thread thread;
  int port = 0;
  std::atomic<bool> healthy{false};
  std::mutex mutex;
  std::set<std::string> accepted_ids, accepted_logs;
  std::atomic<int> refused{0};

  Receiver() {
    server.Post("/hook", [this](const httplib::Request& req, httplib::Response& res) {
      if (!healthy) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ++refused;
        res.status = 503;
        return;
      }
      auto body = core::parse_json_object(req.body);
      std::lock_guard lock(mutex);
      accepted_ids.insert(req.get_header_value("X-Webhook-Id"));
      if (body) accepted_logs.insert(std::string(body->at("data").at("mailLogId").as_string()));
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

TEST_CASE("webhook deliveries survive kill -9: every stored event reaches the endpoint after a restart") {
  testing::TempDir dir;
  const std::string data = dir.path + "/data";
  std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + data + " ";
  REQUIRE(testing::run(admin + "company create --slug hooks --name Hooks").exit_code == 0);
  auto made = testing::run(admin +
                           "token create --company hooks --name api --permission domains.manage "
                           "--permission send.execute --permission webhooks.manage --permission logs.view");
  REQUIRE(made.exit_code == 0);
  const std::string token(parse_object(made.out).at("token").as_string());
  Receiver receiver;
  REQUIRE(receiver.port > 0);
  const int dns_port = test_dns::free_port();
  const std::vector<std::string> flags = {"--rate-limit",
                                          "1000000/1s",
                                          "--mail-rate-limit",
                                          "1000000/1s",
                                          "--mail-delivery-workers",
                                          "0",
                                          "--mail-nameserver",
                                          "127.0.0.1:" + std::to_string(dns_port)};
  std::string webhook_id;
  std::mutex mu;
  std::set<std::string> answered;  // mailLogIds of sends answered 201
  {
    testing::EdgeProcess edge(dir.path, data, flags);
    auto c = client_for(edge.port, token);
    auto domain =
        c.Post("/api/companies/hooks/domains", R"({"name":"hooks.example.test"})", "application/json");
    REQUIRE(domain);
    REQUIRE(domain->status == 201);
    auto d = parse_object(domain->body);
    const std::string domain_id = data_str(d, "id");
    std::vector<std::string> records;
    for (const auto& r : d.at("data").at("dnsRecords").as_array()) {
      const auto& o = r.as_object();
      const std::string name(o.at("name").as_string()), value(o.at("value").as_string());
      records.push_back(o.at("type").as_string() == "TXT" ? "--txt-record=" + name + "," + value
                                                          : "--cname=" + name + "," + value);
    }
    std::string failure;
    auto zone = test_dns::DnsmasqZone::start(records, failure, dns_port);
    REQUIRE_MESSAGE(zone, failure);
    auto verified = c.Post("/api/companies/hooks/domains/" + domain_id + "/verify", "", "application/json");
    REQUIRE(verified);
    REQUIRE(parse_object(verified->body).at("data").at("status").as_string() == "verified");
    auto hook = c.Post(
        "/api/mail/webhooks",
        R"({"url":"http://127.0.0.1:)" + std::to_string(receiver.port) + R"(/hook","events":["queued"]})",
        "application/json");
    REQUIRE(hook);
    REQUIRE(hook->status == 201);
    webhook_id = data_str(parse_object(hook->body), "id");

    std::atomic<bool> stop{false};
    std::atomic<int> done{0};
    std::vector<std::thread> clients;
    for (int t = 0; t < 3; ++t)
      clients.emplace_back([&, t] {
        auto cc = client_for(edge.port, token);
        for (int i = 0; !stop && i < 300; ++i) {
          auto res =
              cc.Post("/api/companies/hooks/send",
                      R"({"domainId":")" + domain_id +
                          R"(","from":"shop@hooks.example.test","subject":"Order","text":"Thanks","to":"c)" +
                          std::to_string(t) + "-" + std::to_string(i) + R"(@example.net"})",
                      "application/json");
          if (!res) break;  // the process is gone
          REQUIRE(res->status == 201);
          std::lock_guard lock(mu);
          answered.insert(data_str(parse_object(res->body), "mailLogId"));
          ++done;
        }
      });
    // Killed while events are being stored and their first attempts are failing or in flight.
    while (done < 60 || receiver.refused < 8) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    edge.stop(SIGKILL);
    stop = true;
    for (auto& th : clients) th.join();
  }
  REQUIRE(answered.size() >= 60);
  {
    std::lock_guard lock(receiver.mutex);
    REQUIRE(receiver.accepted_ids.empty());
  }

  receiver.healthy = true;
  testing::EdgeProcess edge(dir.path, data, flags);
  auto c = client_for(edge.port, token);
  // The first retry is due 5 s after a failed attempt; jobs never attempted are due at once.
  std::size_t total = 0, delivered = 0;
  for (int i = 0; i < 300; ++i) {
    auto all = c.Get("/api/mail/webhooks/" + webhook_id + "/deliveries?limit=1");
    auto ok = c.Get("/api/mail/webhooks/" + webhook_id + "/deliveries?status=delivered&limit=1");
    REQUIRE(all);
    REQUIRE(ok);
    total = std::stoul(all->get_header_value("X-Total-Count"));
    delivered = std::stoul(ok->get_header_value("X-Total-Count"));
    if (total > 0 && delivered == total) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(delivered == total);
  // One delivery per stored send (each a `queued` event), answered or cut off by the kill.
  auto logs = c.Get("/api/mail/logs?limit=1");
  REQUIRE(logs);
  CHECK(std::stoul(logs->get_header_value("X-Total-Count")) == total);
  // Some had failed attempts recorded before the kill, and were retried after it.
  int retried = 0;
  for (std::size_t skip = 0; skip < total; skip += 200) {
    auto page =
        c.Get("/api/mail/webhooks/" + webhook_id + "/deliveries?limit=200&skip=" + std::to_string(skip));
    REQUIRE(page);
    const json::object body = parse_object(page->body);
    for (const auto& d : body.at("data").as_array())
      retried += d.at("history").as_array().front().at("statusCode") == json::value(503);
  }
  CHECK(retried > 0);
  std::lock_guard lock(receiver.mutex);
  CHECK(receiver.accepted_ids.size() == total);
  for (const auto& id : answered) CHECK_MESSAGE(receiver.accepted_logs.count(id) == 1, id);
}

TEST_SUITE_END();
