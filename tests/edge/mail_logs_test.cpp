// Mail: logs (spec document 2; docs/mail-api.md, "Logs") over HTTP, with logs in every status made by the
// real pipeline: sends accepted over HTTP, delivered by the worker to an SMTP capture server that accepts
// one recipient, refuses one for good (bounced), one for now (deferred), plus a suppressed and a scheduled
// (queued) send. The list is newest first and filters by status, domain, from and to, alone and together;
// GET /logs/{id} answers the record with its recipients and timeline; permissions and other companies.

#include <doctest/doctest.h>

#include <thread>

#include "../native/smtp_sink.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

const std::string kLogs = "/api/companies/acme/logs";

struct LogEdge {
  std::unique_ptr<test_smtp::SmtpSink> sink;
  std::unique_ptr<TestEdge> edge;
  std::string token, acme_domain, news_domain;
  // Log ids in the order they were sent, one second apart.
  std::string delivered, bounced, deferred, suppressed, queued;

  LogEdge() {
    std::string failure;
    sink = test_smtp::SmtpSink::start(
        {.tempfail_rcpt = {"slow@example.net"}, .permfail_rcpt = {"gone@example.net"}}, failure);
    REQUIRE_MESSAGE(sink, failure);
    edge::Config c;
    c.rate_limit = {1'000'000, 1000};
    c.mail.rate_limit = {1'000'000, 1000};
    c.mail.relay = "127.0.0.1:" + std::to_string(sink->port());
    c.mail.delivery_workers = 2;
    c.mail.retry_delays_ms = {3'600'000};  // the deferred one stays deferred during the test
    c.mail.smtp_timeout_ms = 10'000;
    edge = std::make_unique<TestEdge>(c);
    token = edge->token_with("acme", kAllMail);
    acme_domain = verified_domain(*edge, token, "acme", "acme.example.test");
    news_domain = verified_domain(*edge, token, "acme", "news.example.test");
    REQUIRE(edge->post("/api/companies/acme/suppressions", R"({"address":"blocked@example.net"})", token)
                .status == 201);

    delivered = send(acme_domain, "Acme <hello@acme.example.test>", R"("ali@example.net")");
    bounced = send(acme_domain, "billing@acme.example.test", R"("gone@example.net")");
    deferred = send(news_domain, "news@news.example.test", R"("slow@example.net")");
    suppressed = send(news_domain, "news@news.example.test", R"("Blocked@example.net")");
    queued = send(acme_domain, "hello@acme.example.test", R"(["ali@example.net","Zeynep@Example.org"])",
                  R"(,"scheduledAt":"2026-11-25T09:00:00.000Z")");
    wait_status(delivered, "delivered");
    wait_status(bounced, "bounced");
    wait_status(deferred, "deferred");
  }

  std::string send(const std::string& domain, const std::string& from, const std::string& to,
                   const std::string& extra = "") {
    edge->clock.advance_ms(1000);
    auto r = edge->post("/api/companies/acme/send",
                        R"({"domainId":")" + domain + R"(","from":")" + from + R"(","to":)" + to +
                            R"(,"subject":"Hello","text":"Hi")" + extra + "}",
                        token);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return str(r.data(), "mailLogId");
  }

  void wait_status(const std::string& id, const std::string& status) {
    for (int i = 0; i < 200; ++i) {
      if (str(edge->get(kLogs + "/" + id, token).data(), "status") == status) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL("log " << id << " never reached " << status);
  }

  // The ids of a list answer, in order.
  std::vector<std::string> ids(const std::string& query, const std::string& total = "") {
    auto r = edge->get(kLogs + query, token);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    if (!total.empty()) CHECK_MESSAGE(r.header("X-Total-Count") == total, query);
    std::vector<std::string> out;
    for (const auto& l : r.data().as_array()) out.push_back(str(l, "id"));
    return out;
  }
};

using Ids = std::vector<std::string>;

}  // namespace

TEST_CASE("logs: newest first, paged, each status a filter of its own") {
  LogEdge t;
  CHECK(t.ids("", "5") == Ids{t.queued, t.suppressed, t.deferred, t.bounced, t.delivered});
  CHECK(t.ids("?limit=2&skip=1", "5") == Ids{t.suppressed, t.deferred});
  CHECK(t.ids("?skip=5", "5").empty());
  CHECK(t.ids("?status=delivered", "1") == Ids{t.delivered});
  CHECK(t.ids("?status=bounced", "1") == Ids{t.bounced});
  CHECK(t.ids("?status=deferred", "1") == Ids{t.deferred});
  CHECK(t.ids("?status=suppressed", "1") == Ids{t.suppressed});
  CHECK(t.ids("?status=queued", "1") == Ids{t.queued});

  // A list item is the log without its timeline.
  auto r = t.edge->get(kLogs + "?status=bounced", t.token);
  const auto& item = r.data().as_array()[0].as_object();
  CHECK_FALSE(item.contains("events"));
  CHECK(str(item, "domain") == "acme.example.test");
  CHECK(str(item.at("recipients").as_array()[0], "status") == "bounced");

  for (const char* bad : {"sent", "Delivered", "", "all"}) {
    auto refused = t.edge->get(kLogs + "?status=" + bad, t.token);
    CHECK(refused.status == 400);
    CHECK(
        refused.body ==
        R"({"data":null,"error":"query parameter 'status' must be one of queued, deferred, delivered, bounced, suppressed"})");
  }
  CHECK(t.edge->get(kLogs + "?limit=500", t.token).status == 400);
}

TEST_CASE("logs: domain, from and to filters, alone and together") {
  LogEdge t;
  CHECK(t.ids("?domain=news.example.test", "2") == Ids{t.suppressed, t.deferred});
  CHECK(t.ids("?domain=ACME.example.TEST", "3") == Ids{t.queued, t.bounced, t.delivered});
  CHECK(t.ids("?domain=other.example.test", "0").empty());
  // `from` matches the address, whatever display name the send gave.
  CHECK(t.ids("?from=hello@acme.example.test", "2") == Ids{t.queued, t.delivered});
  CHECK(t.ids("?from=billing@acme.example.test", "1") == Ids{t.bounced});
  // `to` matches any recipient, without case.
  CHECK(t.ids("?to=ali@example.net", "2") == Ids{t.queued, t.delivered});
  CHECK(t.ids("?to=zeynep@example.org", "1") == Ids{t.queued});
  CHECK(t.ids("?to=BLOCKED@example.net", "1") == Ids{t.suppressed});
  CHECK(t.ids("?to=nobody@example.net", "0").empty());

  CHECK(t.ids("?to=ali@example.net&status=delivered", "1") == Ids{t.delivered});
  CHECK(t.ids("?domain=acme.example.test&status=queued", "1") == Ids{t.queued});
  CHECK(t.ids("?domain=news.example.test&from=news@news.example.test&status=deferred", "1") ==
        Ids{t.deferred});
  CHECK(t.ids("?domain=news.example.test&to=ali@example.net", "0").empty());
  CHECK(t.ids("?from=hello@acme.example.test&to=ali@example.net&limit=1&skip=1", "2") == Ids{t.delivered});

  auto bad_to = t.edge->get(kLogs + "?to=ali", t.token);
  CHECK(bad_to.status == 400);
  CHECK(bad_to.body == R"({"data":null,"error":"query parameter 'to' must be an email address"})");
  CHECK(t.edge->get(kLogs + "?from=x@", t.token).error() ==
        "query parameter 'from' must be an email address");
  CHECK(t.edge->get(kLogs + "?domain=-bad-", t.token).error() ==
        "query parameter 'domain' must be a domain name");
}

TEST_CASE("logs: one log with its recipients and timeline; permissions, other companies, path forms") {
  LogEdge t;
  auto r = t.edge->get(kLogs + "/" + t.bounced, t.token);
  REQUIRE(r.status == 200);
  const auto& log = r.data().as_object();
  CHECK(str(log, "id") == t.bounced);
  CHECK(str(log, "status") == "bounced");
  CHECK(str(log, "from") == "billing@acme.example.test");
  CHECK(log.at("to") == json::value(json::array{"gone@example.net"}));
  const auto& recipient = log.at("recipients").as_array()[0];
  CHECK(str(recipient, "address") == "gone@example.net");
  CHECK(str(recipient, "status") == "bounced");
  std::vector<std::string> events;
  for (const auto& e : log.at("events").as_array()) events.push_back(str(e, "event"));
  CHECK(events == std::vector<std::string>{"queued", "bounced"});
  CHECK(str(log.at("events").as_array()[1], "detail").rfind("550 5.1.1", 0) == 0);

  auto none = t.edge->get(kLogs + "/log_nope", t.token);
  CHECK(none.status == 404);
  CHECK(none.body == R"({"data":null,"error":"no such mail log"})");

  // The product forms answer the same.
  CHECK(t.edge->get("/api/mail/logs/" + t.bounced, t.token).data() == r.data());
  CHECK(t.edge->get("/api/mail/companies/acme/logs/" + t.bounced, t.token).data() == r.data());
  CHECK(t.edge->get("/api/mail/logs?status=bounced", t.token).header("X-Total-Count") == "1");

  // logs.view is needed, and enough.
  const std::string viewer = t.edge->token_with("acme", {"logs.view"});
  CHECK(t.edge->get(kLogs, viewer).status == 200);
  const std::string sender = t.edge->token_with("acme", {"send.execute", "suppressions.manage"});
  const std::string denied = R"({"data":null,"error":"access token lacks permission 'logs.view'"})";
  CHECK(t.edge->get(kLogs, sender).body == denied);
  CHECK(t.edge->get(kLogs + "/" + t.bounced, sender).status == 403);
  CHECK(t.edge->get("/api/mail/logs/" + t.bounced, sender).body == denied);

  // Another company sees none of acme's logs.
  const std::string globex = t.edge->token_with("globex", kAllMail);
  CHECK(t.edge->get("/api/companies/globex/logs/" + t.bounced, globex).status == 404);
  CHECK(t.edge->get("/api/mail/logs/" + t.bounced, globex).status == 404);
  CHECK(t.edge->get("/api/mail/logs", globex).header("X-Total-Count") == "0");
  CHECK(t.edge->get("/api/companies/globex/logs", t.token).status == 404);
  CHECK(t.edge->get(kLogs).status == 401);
}

TEST_SUITE_END();
