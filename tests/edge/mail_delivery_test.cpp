// The delivery worker (docs/mail-delivery.md) against real servers on loopback: an SMTP capture server
// (python3-aiosmtpd) as the relay, and dnsmasq serving the sending domain's DKIM key. Each message arrives
// once per recipient, DKIM-signed so that an independent verifier (python3-dkim) accepts it; a 5xx answer
// bounces and suppresses the address; a 4xx defers, then delivers on the retry; a spent schedule bounces
// without suppressing; every step is on the log's timeline.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "../native/dnsmasq_zone.h"
#include "../native/smtp_sink.h"
#include "edge/mail/suppressions.h"
#include "edge_process.h"
#include "mail_support.h"
#include "native/mail/mime_parse.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

struct DeliveryEdge {
  std::unique_ptr<test_smtp::SmtpSink> sink;
  std::unique_ptr<test_dns::DnsmasqZone> zone;
  std::unique_ptr<TestEdge> edge;
  std::string token, domain_id, company_id;

  explicit DeliveryEdge(test_smtp::SmtpSinkOptions options, std::vector<std::int64_t> retry = {60'000}) {
    std::string failure;
    sink = test_smtp::SmtpSink::start(options, failure);
    REQUIRE_MESSAGE(sink, failure);
    edge::Config c;
    c.mail.relay = "127.0.0.1:" + std::to_string(sink->port());
    c.mail.delivery_workers = 2;
    c.mail.retry_delays_ms = std::move(retry);
    c.mail.smtp_timeout_ms = 10'000;
    c.mail.dkim_zone = "dkim.example.test";  // inside the test zone dnsmasq answers for
    edge = std::make_unique<TestEdge>(c);
    token = edge->token_with("acme", kAllMail);
    domain_id = verified_domain(*edge, token, "acme", "acme.example.test");
    company_id = edge->server->app().accounts->company_by_slug("acme")->id;
    // The key as a receiver finds it: the domain's s1._domainkey CNAME (what the API asked the customer to
    // publish) into the platform's DKIM zone, whose TXT records `edge-admin mail dkim-zone` exports.
    auto domain = edge->get("/api/companies/acme/domains/" + domain_id, token);
    std::vector<std::string> records;
    for (const auto& r : domain.data().at("dnsRecords").as_array())
      if (str(r, "type") == "CNAME") records.push_back("--cname=" + str(r, "name") + "," + str(r, "value"));
    auto exported = testing::run(std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + edge->dir.path +
                                 "/data mail dkim-zone --dkim-zone dkim.example.test");
    REQUIRE(exported.exit_code == 0);
    auto zone_records = core::parse_json(exported.out);
    REQUIRE(zone_records.ok());
    REQUIRE(zone_records->as_array().size() == 2);  // s1 and s2
    for (const auto& r : zone_records->as_array())
      records.push_back("--txt-record=" + str(r, "name") + "," + str(r, "value"));
    zone = test_dns::DnsmasqZone::start(records, failure);
    REQUIRE_MESSAGE(zone, failure);
  }

  std::string send(const std::string& to, const std::string& extra = "") {
    auto r =
        edge->post("/api/companies/acme/send",
                   R"({"domainId":")" + domain_id + R"(","from":"Acme <hello@acme.example.test>","to":)" +
                       to + R"(,"subject":"Your receipt ✓","html":"<p>Hi</p>","text":"Hi")" + extra + "}",
                   token);
    REQUIRE(r.status == 201);
    return str(r.data(), "mailLogId");
  }

  json::value log(const std::string& id) {
    auto rec = edge::mail::read_object(edge->server->app(), edge::mail::company_key(company_id, "log", id));
    REQUIRE(rec.ok());
    REQUIRE(rec->has_value());
    return **rec;
  }

  // Waits until the log's status is `status` (the worker runs on its own threads).
  json::value wait_status(const std::string& id, const std::string& status) {
    for (int i = 0; i < 200; ++i) {
      auto l = log(id);
      if (str(l, "status") == status) return l;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL("log " << id << " never reached " << status << ": " << core::to_json(log(id)));
    return {};
  }

  static std::string recipient_status(const json::value& log, const std::string& address) {
    for (const auto& r : log.at("recipients").as_array())
      if (str(r, "address") == address) return str(r, "status");
    return {};
  }

  static std::vector<std::string> events_of(const json::value& log, const std::string& address) {
    std::vector<std::string> out;
    for (const auto& e : log.at("events").as_array())
      if (str(e, "recipient") == address) out.push_back(str(e, "event"));
    return out;
  }

  // python3-dkim's verdict on a message as received, asking the test's dnsmasq for the key.
  std::string dkim_verdict(const std::string& data) {
    testing::TempDir dir;
    const std::string file = dir.path + "/msg.eml";
    std::ofstream(file, std::ios::binary) << data;
    const std::string ns = zone->nameserver();
    const std::string host = ns.substr(0, ns.find(':')), port = ns.substr(ns.find(':') + 1);
    return testing::run("/usr/bin/python3 " + std::string(DKIM_VERIFY_PY) + " " + host + " " + port + " " +
                        file + " 2>&1")
        .out;
  }
};

}  // namespace

TEST_CASE("delivered messages arrive once per recipient, DKIM-signed, with their timeline") {
  DeliveryEdge t({});
  const std::string id = t.send(
      R"(["ali@example.net","ayse@example.org"])",
      R"(,"replyTo":"help@acme.example.test","attachments":[{"filename":"a.txt","contentType":"text/plain","content":"aGVsbG8="}])");
  auto mails = t.sink->wait_for(2, std::chrono::seconds(10));
  REQUIRE(mails.size() == 2);
  auto log = t.wait_status(id, "delivered");
  std::set<std::string> rcpts;
  for (const auto& m : mails) {
    REQUIRE(m.rcpt_to.size() == 1);
    rcpts.insert(m.rcpt_to[0]);
    CHECK(m.mail_from == "hello@acme.example.test");
    auto parsed = native::mail::parse_mime(m.data);
    REQUIRE(parsed.ok());
    CHECK(parsed->subject == "Your receipt ✓");
    CHECK(parsed->message_id == id + "@acme.example.test");  // the same for every recipient and attempt
    CHECK(parsed->text.find("Hi") != std::string::npos);
    CHECK(parsed->html.rfind("<p>Hi</p>", 0) == 0);
    CHECK(parsed->reply_to.find("help@acme.example.test") != std::string::npos);
    REQUIRE(parsed->attachments.size() == 1);
    CHECK(parsed->attachments[0].filename == "a.txt");
    CHECK(parsed->attachments[0].content == "hello");
    CHECK(m.data.rfind("DKIM-Signature:", 0) == 0);
    CHECK(t.dkim_verdict(m.data).rfind("pass", 0) == 0);
    // Altered in transit: the verifier refuses it.
    std::string tampered = m.data;
    tampered.replace(tampered.find("Hi"), 2, "Yo");
    CHECK(t.dkim_verdict(tampered).rfind("fail", 0) == 0);
  }
  CHECK(rcpts == std::set<std::string>{"ali@example.net", "ayse@example.org"});
  CHECK(DeliveryEdge::events_of(log, "ali@example.net") == std::vector<std::string>{"sent", "delivered"});
  CHECK(DeliveryEdge::recipient_status(log, "ayse@example.org") == "delivered");
  // The body waits only while a recipient does.
  auto body =
      edge::mail::read_object(t.edge->server->app(), edge::mail::company_key(t.company_id, "body", id));
  CHECK_FALSE(body->has_value());
}

TEST_CASE("a 5xx answer bounces and suppresses the address; later sends to it are skipped") {
  DeliveryEdge t({.permfail_rcpt = {"gone@example.net"}});
  const std::string id = t.send(R"(["gone@example.net","ali@example.net"])");
  auto log = t.wait_status(id, "bounced");
  CHECK(DeliveryEdge::recipient_status(log, "gone@example.net") == "bounced");
  CHECK(DeliveryEdge::recipient_status(log, "ali@example.net") == "delivered");
  bool detail = false;
  for (const auto& e : log.at("events").as_array())
    if (str(e, "event") == "bounced") detail = str(e, "detail").rfind("550 5.1.1 no such user", 0) == 0;
  CHECK_MESSAGE(detail, core::to_json(log));

  auto& app = t.edge->server->app();
  std::optional<json::object> entry;
  REQUIRE(app.kv
              ->read([&](const store::ReadTxn& txn) -> core::Status {
                entry = edge::mail::find_suppression(app, txn, t.company_id, "gone@example.net");
                return {};
              })
              .ok());
  REQUIRE(entry);
  CHECK(str(*entry, "reason") == "bounce");
  CHECK(str(entry->at("source"), "mailLogId") == id);
  CHECK(str(entry->at("source"), "event") == "bounced");

  const std::string again = t.send(R"("gone@example.net")");
  auto skipped = t.log(again);
  CHECK(str(skipped, "status") == "suppressed");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(t.sink->received().size() == 1);  // only ali's
}

TEST_CASE("a 4xx answer defers; the retry on the schedule delivers") {
  DeliveryEdge t({.tempfail_rcpt_once = {"slow@example.net"}}, {60'000});
  const std::string id = t.send(R"("slow@example.net")");
  auto log = t.wait_status(id, "deferred");
  CHECK(DeliveryEdge::events_of(log, "slow@example.net") == std::vector<std::string>{"deferred"});
  CHECK(t.sink->received().empty());
  // Not before its time: the retry is due 60 s later.
  t.edge->server->app().mail_delivery->wake();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(str(t.log(id), "status") == "deferred");
  t.edge->clock.advance_ms(60'000);
  t.edge->server->app().mail_delivery->wake();
  log = t.wait_status(id, "delivered");
  CHECK(DeliveryEdge::events_of(log, "slow@example.net") ==
        std::vector<std::string>{"deferred", "sent", "delivered"});
  CHECK(t.sink->received().size() == 1);
}

TEST_CASE("when the retry schedule is spent the recipient bounces, without joining the suppression list") {
  DeliveryEdge t({.tempfail_rcpt = {"busy@example.net"}}, {1000});
  const std::string id = t.send(R"("busy@example.net")");
  t.wait_status(id, "deferred");
  t.edge->clock.advance_ms(1000);
  t.edge->server->app().mail_delivery->wake();
  auto log = t.wait_status(id, "bounced");
  const auto& events = log.at("events").as_array();
  CHECK(str(events.back(), "detail").rfind("gave up after 2 attempts; last answer: 450", 0) == 0);
  auto& app = t.edge->server->app();
  std::optional<json::object> entry;
  REQUIRE(app.kv
              ->read([&](const store::ReadTxn& txn) -> core::Status {
                entry = edge::mail::find_suppression(app, txn, t.company_id, "busy@example.net");
                return {};
              })
              .ok());
  CHECK_FALSE(entry);
}

TEST_SUITE_END();
