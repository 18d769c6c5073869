// Mail: send (spec document 2) over HTTP, without delivery (the worker is off here; delivery has its own
// suites): raw and template modes, the answer `queued` with jobId and mailLogId, the log and outbox written
// in the same commit, 422 for an unverified domain, a `from` outside it, an unknown template or missing
// variables, 413 past 25 MB of attachments, suppressed recipients skipped and logged, Idempotency-Key
// (replay, 409, one effect under concurrency), permissions and another company's ids.

#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>

#include "core/bytes.h"
#include "core/date.h"
#include "edge/mail/suppressions.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

struct SendEdge {
  TestEdge edge{config()};
  std::string token = edge.token_with("acme", kAllMail);
  std::string domain = verified_domain(edge, token, "acme", "acme.example.test");
  std::string company_id = edge.server->app().accounts->company_by_slug("acme")->id;

  static edge::Config config() {
    edge::Config c;
    c.mail.delivery_workers = 0;
    c.max_json_body = 1 << 20;
    return c;
  }

  testing::Reply send(const std::string& body, const std::string& key = "", const std::string& tok = "") {
    httplib::Headers h{{"Authorization", "Bearer " + (tok.empty() ? token : tok)}};
    if (!key.empty()) h.emplace("Idempotency-Key", key);
    return edge.send("POST", "/api/companies/acme/send", body, h);
  }

  std::string raw(const std::string& to = R"("ali@example.net")", const std::string& extra = "") const {
    return R"({"domainId":")" + domain + R"(","from":"Acme <hello@acme.example.test>","to":)" + to +
           R"(,"subject":"Hello","html":"<p>Hi</p>","text":"Hi")" + extra + "}";
  }

  json::object log(const std::string& id) {
    auto& app = edge.server->app();
    auto rec = edge::mail::read_object(app, edge::mail::company_key(company_id, "log", id));
    REQUIRE(rec.ok());
    REQUIRE(rec->has_value());
    return **rec;
  }

  std::vector<std::string> outbox() {
    auto& app = edge.server->app();
    std::vector<std::string> keys;
    REQUIRE(app.kv
                ->read([&](const store::ReadTxn& txn) -> core::Status {
                  txn.scan(app.mail_table, "outbox/", [&](std::string_view k, std::string_view) {
                    keys.emplace_back(k);
                    return true;
                  });
                  return {};
                })
                .ok());
    return keys;
  }
};

}  // namespace

TEST_CASE("a raw send is queued with its log and one outbox job per recipient in the same commit") {
  SendEdge t;
  auto r =
      t.send(t.raw(R"(["ali@example.net","ayse@example.org"])", R"(,"replyTo":"help@acme.example.test")"));
  REQUIRE(r.status == 201);
  CHECK(r.error().empty());
  CHECK(str(r.data(), "status") == "queued");
  const std::string log_id = str(r.data(), "mailLogId");
  CHECK(log_id.rfind("log_", 0) == 0);
  CHECK(str(r.data(), "jobId").rfind("job_", 0) == 0);
  CHECK_FALSE(r.data().as_object().contains("scheduledAt"));

  auto log = t.log(log_id);
  CHECK(str(log, "status") == "queued");
  CHECK(str(log, "domain") == "acme.example.test");
  CHECK(str(log, "subject") == "Hello");
  CHECK(log.at("to") == json::value(json::array{"ali@example.net", "ayse@example.org"}));
  CHECK(log.at("recipients").as_array().size() == 2);
  CHECK(str(log.at("events").as_array()[0], "event") == "queued");
  auto jobs = t.outbox();
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].find(log_id + "/0") != std::string::npos);
  CHECK(jobs[1].find(log_id + "/1") != std::string::npos);

  // Both product paths take the same body.
  CHECK(t.edge.post("/api/mail/send", t.raw(), t.token).status == 201);
  CHECK(t.edge.post("/api/mail/companies/acme/send", t.raw(), t.token).status == 201);
}

TEST_CASE("scheduledAt delays the job and is echoed") {
  SendEdge t;
  auto r = t.send(t.raw(R"("ali@example.net")", R"(,"scheduledAt":"2026-11-19T09:00:00.000Z")"));
  REQUIRE(r.status == 201);
  CHECK(str(r.data(), "scheduledAt") == "2026-11-19T09:00:00.000Z");
  auto jobs = t.outbox();
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].rfind("outbox/" + edge::mail::due_text(*core::parse_timestamp("2026-11-19T09:00:00.000Z")),
                      0) == 0);
}

TEST_CASE("template sends render the picked locale and refuse missing variables with their names") {
  SendEdge t;
  auto tpl = t.edge.post("/api/companies/acme/templates",
                         R"({"name":"Receipt","subject":{"en":"Order {order}","tr":"Sipariş {order}"},
                             "body":{"en":"<p>{name}</p>{#items}<i>{title}</i>{/items}","tr":"<p>Merhaba {name}</p>"},
                             "domainId":")" +
                             t.domain + R"("})",
                         t.token);
  REQUIRE(tpl.status == 201);
  const std::string id = str(tpl.data(), "id");
  auto body = [&](const std::string& vars, const std::string& locale = "tr") {
    return R"({"domainId":")" + t.domain + R"(","from":"hello@acme.example.test","to":"ali@example.net",
               "templateId":")" +
           id + R"(","locale":")" + locale + R"(","variables":)" + vars + "}";
  };
  auto missing = t.send(body(R"({"order":7})", "en"));
  CHECK(missing.status == 422);
  CHECK(missing.error() == "missing variables: name, items");
  auto ok = t.send(body(R"({"order":7,"name":"<Ali & Co>"})"));
  REQUIRE(ok.status == 201);
  auto log = t.log(str(ok.data(), "mailLogId"));
  CHECK(str(log, "subject") == "Sipariş 7");
  CHECK(str(log, "templateId") == id);
  auto content = edge::mail::read_object(t.edge.server->app(),
                                         edge::mail::company_key(t.company_id, "body", str(log, "id")));
  CHECK(str(**content, "html") == "<p>Merhaba &lt;Ali &amp; Co&gt;</p>");

  auto unknown =
      t.send(R"({"domainId":")" + t.domain +
             R"(","from":"hello@acme.example.test","to":"a@example.net","templateId":"tpl_nope"})");
  CHECK(unknown.status == 422);
  CHECK(unknown.error() == "templateId names no template of this company");
}

TEST_CASE("sends are refused for unverified or foreign domains and a from outside the domain") {
  SendEdge t;
  auto pending = t.edge.post("/api/companies/acme/domains", R"({"name":"new.example.test"})", t.token);
  auto r = t.send(R"({"domainId":")" + str(pending.data(), "id") +
                  R"(","from":"a@new.example.test","to":"b@example.net","subject":"s","text":"t"})");
  CHECK(r.status == 422);
  CHECK(r.error() == "domain 'new.example.test' is not verified; verify it before sending");
  auto outside = t.send(R"({"domainId":")" + t.domain +
                        R"(","from":"a@other.example.test","to":"b@example.net","subject":"s","text":"t"})");
  CHECK(outside.status == 422);
  CHECK(outside.error() ==
        "'from' address a@other.example.test is not on the sending domain acme.example.test");
  auto globex = t.edge.token_with("globex", kAllMail);
  const std::string theirs = verified_domain(t.edge, globex, "globex", "globex.example.test");
  auto foreign = t.send(R"({"domainId":")" + theirs +
                        R"(","from":"a@globex.example.test","to":"b@example.net","subject":"s","text":"t"})");
  CHECK(foreign.status == 422);
  CHECK(foreign.error() == "domainId names no domain of this company");
  CHECK(t.outbox().empty());

  // Malformed bodies: 400 with the field named, nothing queued.
  CHECK(t.send("{").status == 400);
  CHECK(t.send("[]").status == 400);
  auto no_to =
      t.send(R"({"domainId":")" + t.domain + R"(","from":"a@acme.example.test","subject":"s","text":"t"})");
  CHECK(no_to.status == 400);
  CHECK(no_to.error() == "field 'to' is required");
  CHECK(t.outbox().empty());
}

TEST_CASE("attachments: accepted up to 25 MB decoded, 413 past it") {
  SendEdge t;
  auto r = t.send(
      t.raw(R"("ali@example.net")",
            R"(,"attachments":[{"filename":"a.txt","contentType":"text/plain","content":"aGVsbG8="}])"));
  CHECK(r.status == 201);
  const std::string big = core::base64_encode(core::as_bytes(std::string(13'000'000, 'x')));
  auto over = t.send(t.raw(R"("ali@example.net")", R"(,"attachments":[{"filename":"a","content":")" + big +
                                                       R"("},{"filename":"b","content":")" + big + R"("}])"));
  CHECK(over.status == 413);
  CHECK(over.error() == "attachments exceed 25 MB per message");
  CHECK(t.outbox().size() == 1);
}

TEST_CASE("suppressed recipients are skipped silently and logged") {
  SendEdge t;
  auto& app = t.edge.server->app();
  REQUIRE(app.kv
              ->write([&](store::WriteTxn& txn) -> core::Status {
                edge::mail::add_suppression(app, txn, t.company_id, "Gone@Example.NET", "bounce", nullptr,
                                            t.edge.clock.now_ms());
                return {};
              })
              .ok());
  auto r = t.send(t.raw(R"(["gone@example.net","ali@example.net"])"));
  REQUIRE(r.status == 201);
  auto log = t.log(str(r.data(), "mailLogId"));
  CHECK(str(log.at("recipients").as_array()[0], "status") == "suppressed");
  CHECK(str(log.at("recipients").as_array()[1], "status") == "queued");
  bool logged = false;
  for (const auto& e : log.at("events").as_array())
    logged |= str(e, "event") == "suppressed" && str(e, "recipient") == "gone@example.net";
  CHECK(logged);
  CHECK(t.outbox().size() == 1);
  // Every recipient suppressed: still accepted, nothing to deliver, the log says so.
  auto all = t.send(t.raw(R"("gone@example.net")"));
  CHECK(all.status == 201);
  CHECK(str(t.log(str(all.data(), "mailLogId")), "status") == "suppressed");
  CHECK(t.outbox().size() == 1);
}

TEST_CASE("Idempotency-Key: a retry replays, another body conflicts, parallel retries queue once") {
  SendEdge t;
  auto first = t.send(t.raw(), "order-42");
  REQUIRE(first.status == 201);
  auto again = t.send(t.raw(), "order-42");
  CHECK(again.status == 201);
  CHECK(again.header("Idempotent-Replayed") == "true");
  CHECK(again.data() == first.data());
  auto other = t.send(t.raw(R"("someone@example.net")"), "order-42");
  CHECK(other.status == 409);
  CHECK(t.outbox().size() == 1);

  std::atomic<int> created{0};
  std::vector<std::thread> threads;
  std::mutex m;
  std::set<std::string> ids;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      httplib::Client c("127.0.0.1", t.edge.server->port());
      auto res = c.Post("/api/companies/acme/send",
                        {{"Authorization", "Bearer " + t.token}, {"Idempotency-Key", "parallel"}}, t.raw(),
                        "application/json");
      if (res && res->status == 201) {
        ++created;
        auto body = core::parse_json_object(res->body);
        std::lock_guard lock(m);
        ids.insert(str(body->at("data"), "mailLogId"));
      }
    });
  for (auto& th : threads) th.join();
  CHECK(created == 8);
  CHECK(ids.size() == 1);
  CHECK(t.outbox().size() == 2);
}

TEST_CASE("send permissions and credentials") {
  SendEdge t;
  auto no_send = t.edge.token_with("acme", {"templates.manage"});
  auto r = t.send(t.raw(), "", no_send);
  CHECK(r.status == 403);
  CHECK(r.error() == "access token lacks permission 'send.execute'");
  CHECK(t.edge.post("/api/companies/acme/send", t.raw()).status == 401);
  CHECK(t.edge.post("/api/companies/globex/send", t.raw(), t.token).status == 404);
  CHECK(t.outbox().empty());
}

TEST_CASE("the mail rate limit: 100 requests per 10 s per token across mail endpoints") {
  SendEdge t;
  auto other = t.edge.token_with("acme", kAllMail);
  int ok = 0;
  for (int i = 0; i < 100; ++i)
    ok += t.edge.get(i % 2 ? "/api/mail/domains" : "/api/companies/acme/templates", other).status == 200;
  CHECK(ok == 100);
  auto limited = t.send(t.raw(), "", other);
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "1");
  CHECK(limited.error().find("rate limit") != std::string::npos);
  // Another token is not affected; time refills the bucket (10 requests per second).
  CHECK(t.send(t.raw()).status == 201);
  t.edge.clock.advance_ms(1000);
  for (int i = 0; i < 10; ++i) CHECK(t.edge.get("/api/mail/domains", other).status == 200);
  CHECK(t.edge.get("/api/mail/domains", other).status == 429);
}

TEST_SUITE_END();
