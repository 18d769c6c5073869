// Nothing acknowledged is lost and nothing is sent twice (issue 12): the edge process accepts sends
// (delivery off, so every accepted send is between accept and delivery) while it is killed with SIGKILL.
// After a restart with delivery on, every send that was answered 201 is delivered exactly once, a retry of
// every attempted Idempotency-Key (answered or cut off) answers the same mailLogId or queues the send once,
// and the SMTP capture server receives one message per key.

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "../native/dnsmasq_zone.h"
#include "../native/smtp_sink.h"
#include "core/json.h"
#include "edge_process.h"
#include "native/mail/mime_parse.h"
#include "test_edge.h"

TEST_SUITE_BEGIN("mail");

namespace {
namespace json = core::json;
using testing::client_for;
using testing::parse_object;

std::string admin_token(const std::string& data) {
  std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + data + " ";
  REQUIRE(testing::run(admin + "company create --slug post --name Post").exit_code == 0);
  auto made = testing::run(admin +
                           "token create --company post --name api --permission domains.manage "
                           "--permission send.execute");
  REQUIRE(made.exit_code == 0);
  return std::string(parse_object(made.out).at("token").as_string());
}

}  // namespace

TEST_CASE("sends survive kill -9 between accept and delivery: each is delivered once") {
  testing::TempDir dir;
  const std::string data = dir.path + "/data";
  const std::string token = admin_token(data);
  const int dns_port = test_dns::free_port();
  std::string failure;
  auto sink = test_smtp::SmtpSink::start({}, failure);
  REQUIRE_MESSAGE(sink, failure);
  const std::vector<std::string> common = {"--rate-limit",      "1000000/1s",
                                           "--mail-rate-limit", "1000000/1s",
                                           "--mail-nameserver", "127.0.0.1:" + std::to_string(dns_port)};

  const std::string body_head =
      R"(,"from":"shop@crash.example.test","subject":"Order","text":"Thanks","to":"c)";
  std::string domain_id;
  std::mutex mu;
  std::map<std::string, std::string> answered;  // key -> mailLogId
  std::set<std::string> attempted;
  {
    auto flags = common;
    flags.insert(flags.end(), {"--mail-delivery-workers", "0"});
    testing::EdgeProcess edge(dir.path, data, flags);
    auto c = client_for(edge.port, token);
    auto made = c.Post("/api/companies/post/domains", R"({"name":"crash.example.test"})", "application/json");
    REQUIRE(made);
    REQUIRE(made->status == 201);
    auto domain = parse_object(made->body).at("data").as_object();
    domain_id = std::string(domain.at("id").as_string());
    std::vector<std::string> records;
    for (const auto& r : domain.at("dnsRecords").as_array()) {
      const auto& o = r.as_object();
      const std::string name(o.at("name").as_string()), value(o.at("value").as_string());
      records.push_back(o.at("type").as_string() == "TXT" ? "--txt-record=" + name + "," + value
                                                          : "--cname=" + name + "," + value);
    }
    auto zone = test_dns::DnsmasqZone::start(records, failure, dns_port);
    REQUIRE_MESSAGE(zone, failure);
    auto verified = c.Post("/api/companies/post/domains/" + domain_id + "/verify", "", "application/json");
    REQUIRE(verified);
    REQUIRE(parse_object(verified->body).at("data").at("status").as_string() == "verified");

    std::atomic<bool> stop{false};
    std::atomic<int> done{0};
    std::vector<std::thread> clients;
    for (int t = 0; t < 4; ++t)
      clients.emplace_back([&, t] {
        auto cc = client_for(edge.port, token);
        for (int i = 0; !stop && i < 200; ++i) {
          const std::string key = "k-" + std::to_string(t) + "-" + std::to_string(i);
          {
            std::lock_guard lock(mu);
            attempted.insert(key);
          }
          auto res = cc.Post("/api/companies/post/send", {{"Idempotency-Key", key}},
                             R"({"domainId":")" + domain_id + R"(")" + body_head + key + R"(@example.net"})",
                             "application/json");
          if (!res) break;  // the process is gone
          REQUIRE(res->status == 201);
          std::lock_guard lock(mu);
          answered[key] = std::string(parse_object(res->body).at("data").at("mailLogId").as_string());
          ++done;
        }
      });
    while (done < 150) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    edge.stop(SIGKILL);
    stop = true;
    for (auto& th : clients) th.join();
  }
  REQUIRE(answered.size() >= 150);
  CHECK(sink->received().empty());

  auto flags = common;
  flags.insert(flags.end(),
               {"--mail-delivery-workers", "4", "--mail-relay", "127.0.0.1:" + std::to_string(sink->port())});
  testing::EdgeProcess edge(dir.path, data, flags);
  auto c = client_for(edge.port, token);
  std::set<std::string> ids;
  for (const auto& key : attempted) {
    auto res = c.Post("/api/companies/post/send", {{"Idempotency-Key", key}},
                      R"({"domainId":")" + domain_id + R"(")" + body_head + key + R"(@example.net"})",
                      "application/json");
    REQUIRE(res);
    REQUIRE(res->status == 201);
    const std::string id(parse_object(res->body).at("data").at("mailLogId").as_string());
    ids.insert(id);
    if (auto it = answered.find(key); it != answered.end()) {
      CHECK(id == it->second);  // the acknowledged send, not a new one
      CHECK(res->get_header_value("Idempotent-Replayed") == "true");
    }
  }
  CHECK(ids.size() == attempted.size());
  auto mails = sink->wait_for(attempted.size(), std::chrono::seconds(60));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // anything extra would arrive now
  mails = sink->received();
  CHECK(mails.size() == attempted.size());
  std::multiset<std::string> delivered;
  for (const auto& m : mails) {
    auto parsed = native::mail::parse_mime(m.data);
    REQUIRE(parsed.ok());
    delivered.insert(parsed->message_id.substr(0, parsed->message_id.find('@')));
  }
  CHECK(std::set<std::string>(delivered.begin(), delivered.end()) == ids);
  for (const auto& id : ids) CHECK(delivered.count(id) == 1);
}

TEST_SUITE_END();
