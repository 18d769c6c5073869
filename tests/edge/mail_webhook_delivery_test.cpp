// Mail: webhook deliveries (spec/DECISIONS.md: `X-Webhook-Signature: sha256=<hex>`, HMAC-SHA256 of the raw
// body; docs/mail-api.md, "Webhooks") against a real receiver: an httplib::Server on loopback that records
// every request and answers as scripted. The receiver checks each signature with the secret from the create
// answer (OpenSSL's HMAC, not the platform's code); events reach only subscribed, enabled endpoints; a
// failed attempt is retried on the schedule with the same event id; a spent schedule fails; replay sends
// the same event again; an endpoint that does not answer, a disabled and a deleted endpoint.

#include <doctest/doctest.h>
#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <deque>
#include <mutex>
#include <thread>

#include "core/bytes.h"
#include "edge/mail/mail_events.h"
#include "edge/mail/webhooks.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

const std::string kHooks = "/api/companies/acme/webhooks";

// `sha256=` and the lower-case hex HMAC-SHA256 of `body` under `secret`, computed with OpenSSL.
std::string openssl_signature(const std::string& secret, const std::string& body) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &n);
  return "sha256=" + core::hex_encode(std::span<const std::uint8_t>(mac, n));
}

struct Hit {
  std::string path, body, signature, id, timestamp, content_type;
  json::object json;
};

// A webhook receiver on 127.0.0.1: records each POST and answers the next scripted status for its path
// (200 once the script is spent), with `delay` before answering.
class Receiver {
 public:
  Receiver() {
    server_.Post(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      std::chrono::milliseconds delay{0};
      int status = 200;
      {
        std::lock_guard lock(mutex_);
        Hit h{req.path,
              req.body,
              req.get_header_value("X-Webhook-Signature"),
              req.get_header_value("X-Webhook-Id"),
              req.get_header_value("X-Webhook-Timestamp"),
              req.get_header_value("Content-Type"),
              {}};
        if (auto o = core::parse_json_object(req.body)) h.json = *o;
        hits_.push_back(std::move(h));
        auto& script = scripts_[req.path];
        if (!script.empty()) {
          status = script.front();
          script.pop_front();
        }
        delay = delay_;
      }
      std::this_thread::sleep_for(delay);
      res.status = status;
      res.set_content(status == 200 ? "ok" : "try again later", "text/plain");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Receiver() {
    server_.stop();
    thread_.join();
  }

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void script(const std::string& path, std::deque<int> statuses) {
    std::lock_guard lock(mutex_);
    scripts_[path] = std::move(statuses);
  }
  void set_delay(std::chrono::milliseconds d) {
    std::lock_guard lock(mutex_);
    delay_ = d;
  }

  // The requests to `path` once there are at least `n`, or those there are after 10 s.
  std::vector<Hit> wait_for(const std::string& path, std::size_t n) {
    for (int i = 0; i < 400; ++i) {
      auto got = hits(path);
      if (got.size() >= n) return got;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return hits(path);
  }
  std::vector<Hit> hits(const std::string& path) {
    std::lock_guard lock(mutex_);
    std::vector<Hit> out;
    for (const auto& h : hits_)
      if (h.path == path) out.push_back(h);
    return out;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  std::vector<Hit> hits_;
  std::map<std::string, std::deque<int>> scripts_;
  std::chrono::milliseconds delay_{0};
};

struct HookEdge {
  Receiver receiver;
  TestEdge edge;
  std::string token = edge.token_with("acme", kAllMail);
  std::string company_id = edge.server->app().accounts->company_by_slug("acme")->id;

  static edge::Config config(std::vector<std::int64_t> retry) {
    edge::Config c;
    c.rate_limit = {1'000'000, 1000};
    c.mail.rate_limit = {1'000'000, 1000};
    c.mail.delivery_workers = 0;
    c.mail.webhook_workers = 2;
    c.mail.webhook_poll_ms = 20;
    c.mail.webhook_timeout_ms = 2000;
    c.mail.webhook_retry_delays_ms = std::move(retry);
    return c;
  }

  explicit HookEdge(std::vector<std::int64_t> retry = {1000}) : edge(config(std::move(retry))) {}

  struct Endpoint {
    std::string id, secret;
  };
  Endpoint endpoint(const std::string& path, const std::string& events, const std::string& extra = "") {
    auto r = edge.post(kHooks, R"({"url":")" + receiver.url(path) + R"(","events":)" + events + extra + "}",
                       token);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return {str(r.data(), "id"), str(r.data(), "secret")};
  }

  // Stores one event of log `log_id` the way a send or the delivery worker does.
  void record(const std::string& event, const std::string& log_id, const std::string& recipient = "",
              const std::string& detail = "") {
    auto& app = edge.server->app();
    std::vector<edge::mail::MailEvent> events{{event, log_id, recipient, detail, edge.clock.now_ms()}};
    REQUIRE(app.kv
                ->write([&](store::WriteTxn& txn) -> core::Status {
                  edge::mail::record_events(app, txn, company_id, events);
                  return {};
                })
                .ok());
  }

  testing::Reply deliveries(const std::string& webhook_id, const std::string& query = "") {
    return edge.get(kHooks + "/" + webhook_id + "/deliveries" + query, token);
  }

  // The endpoint's only (or newest) delivery once its status is `status` after `attempts` attempts.
  json::object wait_delivery(const std::string& webhook_id, const std::string& status,
                             std::int64_t attempts) {
    json::object last;
    for (int i = 0; i < 400; ++i) {
      auto r = deliveries(webhook_id);
      if (r.status == 200 && !r.data().as_array().empty()) {
        last = r.data().as_array()[0].as_object();
        if (str(last, "status") == status && last.at("attempts").as_int64() == attempts) return last;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    FAIL("delivery never reached " << status << " after " << attempts
                                   << " attempts: " << core::to_json(last));
    return last;
  }

  // Waits until `n` of the endpoint's deliveries have `status`.
  void wait_count(const std::string& webhook_id, const std::string& status, std::size_t n) {
    const std::string want = std::to_string(n);
    for (int i = 0; i < 400; ++i) {
      if (deliveries(webhook_id, "?status=" + status).header("X-Total-Count") == want) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    FAIL("never " << n << " deliveries " << status);
  }

  // Moves the clock on and lets the worker look at the outbox at once.
  void advance(std::int64_t ms) {
    edge.clock.advance_ms(ms);
    edge.server->app().mail_webhooks->wake();
  }

  std::size_t outbox_size() {
    auto& app = edge.server->app();
    std::size_t n = 0;
    REQUIRE(app.kv
                ->read([&](const store::ReadTxn& txn) -> core::Status {
                  txn.scan(app.mail_table, edge::mail::kWebhookOutboxPrefix,
                           [&](std::string_view, std::string_view) {
                             ++n;
                             return true;
                           });
                  return {};
                })
                .ok());
    return n;
  }
};

}  // namespace

TEST_CASE("webhooks: a send's events are POSTed, signed with the endpoint's secret, to subscribers only") {
  HookEdge t;
  auto a = t.endpoint("/a", R"(["queued","suppressed"])");
  auto b = t.endpoint("/b", R"(["bounced","delivered"])");
  auto c = t.endpoint("/c", R"(["queued"])", R"(,"enabled":false)");
  const std::string domain = verified_domain(t.edge, t.token, "acme", "acme.example.test");
  REQUIRE(t.edge.post("/api/mail/suppressions", R"({"address":"blocked@example.net"})", t.token).status ==
          201);
  auto sent = t.edge.post(
      "/api/companies/acme/send",
      R"({"domainId":")" + domain +
          R"(","from":"hello@acme.example.test","to":["ali@example.net","blocked@example.net"],"subject":"s","text":"t"})",
      t.token);
  REQUIRE(sent.status == 201);
  const std::string log_id = str(sent.data(), "mailLogId");

  auto hits = t.receiver.wait_for("/a", 2);
  REQUIRE(hits.size() == 2);
  std::map<std::string, Hit> by_type;
  for (const auto& h : hits) {
    // The receiver's checks: the signature over the raw bytes with the secret it was given, then the rest.
    CHECK(h.signature == openssl_signature(a.secret, h.body));
    CHECK(h.signature != openssl_signature(b.secret, h.body));
    CHECK(h.content_type == "application/json");
    CHECK(h.id == str(h.json, "id"));
    CHECK(h.id.rfind("evt_", 0) == 0);
    CHECK(h.timestamp == std::to_string(TestEdge::kStart / 1000));
    CHECK(h.json.at("timestamp").as_int64() == TestEdge::kStart / 1000);
    CHECK(str(h.json, "createdAt") == "2026-11-18T11:06:40.000Z");
    CHECK(str(h.json.at("data"), "mailLogId") == log_id);
    by_type[str(h.json, "type")] = h;
  }
  REQUIRE(by_type.size() == 2);
  // The exact body of the suppressed event, member order included.
  const Hit& s = by_type.at("suppressed");
  CHECK(
      s.body ==
      R"({"id":")" + s.id +
          R"(","type":"suppressed","createdAt":"2026-11-18T11:06:40.000Z","timestamp":1795000000,"data":{"mailLogId":")" +
          log_id + R"x(","recipient":"blocked@example.net","detail":"on the suppression list (manual)"}})x");
  CHECK_FALSE(by_type.at("queued").json.at("data").as_object().contains("recipient"));

  // Not subscribed, or disabled: nothing sent, nothing recorded.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(t.receiver.hits("/b").empty());
  CHECK(t.receiver.hits("/c").empty());
  CHECK(t.deliveries(b.id).header("X-Total-Count") == "0");
  CHECK(t.deliveries(c.id).header("X-Total-Count") == "0");

  // The delivery log: each delivered on its first attempt.
  t.wait_count(a.id, "delivered", 2);
  auto d = t.wait_delivery(a.id, "delivered", 1);
  auto list = t.deliveries(a.id);
  CHECK(list.header("X-Total-Count") == "2");
  for (const auto& v : list.data().as_array()) {
    const auto& rec = v.as_object();
    CHECK(str(rec, "id").rfind("whd_", 0) == 0);
    CHECK(str(rec, "webhookId") == a.id);
    CHECK(str(rec, "status") == "delivered");
    CHECK(rec.at("attempts").as_int64() == 1);
    CHECK(rec.at("lastStatusCode").as_int64() == 200);
    CHECK(rec.at("lastError").is_null());
    CHECK(rec.at("nextAttemptAt").is_null());
    CHECK(str(rec, "deliveredAt") == "2026-11-18T11:06:40.000Z");
    CHECK(by_type.at(str(rec, "event")).id == str(rec, "eventId"));
    CHECK(str(rec.at("payload"), "id") == str(rec, "eventId"));
    CHECK_FALSE(rec.contains("job"));
    CHECK(rec.at("history").as_array().size() == 1);
  }
  CHECK(t.deliveries(a.id, "?status=delivered").header("X-Total-Count") == "2");
  CHECK(t.deliveries(a.id, "?status=pending&limit=1").header("X-Total-Count") == "0");
  CHECK(t.deliveries(a.id, "?limit=1&skip=1").data().as_array().size() == 1);
  auto bad = t.deliveries(a.id, "?status=sent");
  CHECK(bad.status == 400);
  CHECK(bad.body ==
        R"({"data":null,"error":"query parameter 'status' must be one of pending, delivered, failed"})");
  auto one = t.edge.get("/api/mail/webhooks/" + a.id + "/deliveries/" + str(d, "id"), t.token);
  CHECK(one.status == 200);
  CHECK(one.data() == json::value(d));
  CHECK(t.outbox_size() == 0);
}

TEST_CASE("webhooks: a failed attempt is retried on the schedule with the same event id; then it fails") {
  HookEdge t({1000, 1000});
  auto a = t.endpoint("/flaky", R"(["delivered"])");
  t.receiver.script("/flaky", {500});
  t.record("delivered", "log_1", "ali@example.net", "250 ok");

  auto first = t.receiver.wait_for("/flaky", 1);
  REQUIRE(first.size() == 1);
  auto pending = t.wait_delivery(a.id, "pending", 1);
  CHECK(pending.at("lastStatusCode").as_int64() == 500);
  CHECK(str(pending, "lastError") == "HTTP 500: try again later");
  CHECK(str(pending, "nextAttemptAt") == "2026-11-18T11:06:41.000Z");
  // Not before its time.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(t.receiver.hits("/flaky").size() == 1);

  t.advance(1000);
  auto both = t.receiver.wait_for("/flaky", 2);
  REQUIRE(both.size() == 2);
  CHECK(both[1].id == both[0].id);
  CHECK(str(both[1].json, "id") == str(both[0].json, "id"));
  CHECK(both[1].timestamp == std::to_string(TestEdge::kStart / 1000 + 1));  // the attempt's time, signed
  CHECK(both[0].signature == openssl_signature(a.secret, both[0].body));
  CHECK(both[1].signature == openssl_signature(a.secret, both[1].body));
  auto done = t.wait_delivery(a.id, "delivered", 2);
  CHECK(done.at("lastError").is_null());
  const auto& history = done.at("history").as_array();
  REQUIRE(history.size() == 2);
  CHECK(history[0].at("statusCode").as_int64() == 500);
  CHECK(history[1].at("statusCode").as_int64() == 200);

  // An endpoint that keeps failing: three attempts (the first and two retries), then `failed`.
  auto b = t.endpoint("/down", R"(["bounced"])");
  t.receiver.script("/down", {503, 503, 503, 503});
  t.record("bounced", "log_2", "gone@example.net", "550 no such user");
  REQUIRE(t.receiver.wait_for("/down", 1).size() == 1);
  t.wait_delivery(b.id, "pending", 1);
  t.advance(1000);
  REQUIRE(t.receiver.wait_for("/down", 2).size() == 2);
  t.wait_delivery(b.id, "pending", 2);
  t.advance(1000);
  auto three = t.receiver.wait_for("/down", 3);
  REQUIRE(three.size() == 3);
  CHECK(three[2].id == three[0].id);
  auto failed = t.wait_delivery(b.id, "failed", 3);
  CHECK(failed.at("lastStatusCode").as_int64() == 503);
  CHECK(failed.at("nextAttemptAt").is_null());
  t.advance(60'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(t.receiver.hits("/down").size() == 3);
  CHECK(t.outbox_size() == 0);
}

TEST_CASE("webhooks: replay sends the same event again now; a failed replay stays failed") {
  HookEdge t({1000});
  auto a = t.endpoint("/in", R"(["delivered"])");
  t.record("delivered", "log_1", "ali@example.net");
  auto d = t.wait_delivery(a.id, "delivered", 1);
  const std::string replay = kHooks + "/" + a.id + "/deliveries/" + str(d, "id") + "/replay";

  t.edge.clock.advance_ms(30'000);
  auto queued = t.edge.post(replay, "", t.token);
  REQUIRE(queued.status == 200);
  CHECK(str(queued.data(), "status") == "pending");
  CHECK(str(queued.data(), "nextAttemptAt") == "2026-11-18T11:07:10.000Z");
  CHECK(str(queued.data(), "eventId") == str(d, "eventId"));
  auto hits = t.receiver.wait_for("/in", 2);
  REQUIRE(hits.size() == 2);
  CHECK(hits[1].id == hits[0].id);
  CHECK(hits[1].json.at("data") == hits[0].json.at("data"));
  CHECK(hits[1].timestamp == std::to_string(TestEdge::kStart / 1000 + 30));
  CHECK(hits[1].signature == openssl_signature(a.secret, hits[1].body));
  t.wait_delivery(a.id, "delivered", 2);
  CHECK(t.deliveries(a.id).header("X-Total-Count") == "1");  // the same delivery, not a new one

  // A delivery that failed for good gets one more attempt per replay, and no new schedule.
  auto b = t.endpoint("/broken", R"(["bounced"])");
  t.receiver.script("/broken", {500, 500, 500});
  t.record("bounced", "log_2", "gone@example.net");
  REQUIRE(t.receiver.wait_for("/broken", 1).size() == 1);
  t.wait_delivery(b.id, "pending", 1);
  t.advance(1000);
  auto failed = t.wait_delivery(b.id, "failed", 2);
  REQUIRE(t.receiver.hits("/broken").size() == 2);
  const std::string replay_b = "/api/mail/webhooks/" + b.id + "/deliveries/" + str(failed, "id") + "/replay";
  REQUIRE(t.edge.post(replay_b, "", t.token).status == 200);
  REQUIRE(t.receiver.wait_for("/broken", 3).size() == 3);
  auto still = t.wait_delivery(b.id, "failed", 3);
  CHECK(still.at("nextAttemptAt").is_null());
  t.advance(60'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(t.receiver.hits("/broken").size() == 3);
  // Replayed once the receiver is fixed (its script is spent): delivered, same event id throughout.
  REQUIRE(t.edge.post(replay_b, "", t.token).status == 200);
  t.wait_delivery(b.id, "delivered", 4);
  auto all = t.receiver.hits("/broken");
  REQUIRE(all.size() == 4);
  for (const auto& h : all) CHECK(h.id == all[0].id);

  // Unknown deliveries, another endpoint's delivery, another company: 404.
  auto none = t.edge.post(kHooks + "/" + a.id + "/deliveries/whd_nope/replay", "", t.token);
  CHECK(none.status == 404);
  CHECK(none.body == R"({"data":null,"error":"no such delivery of this webhook endpoint"})");
  CHECK(t.edge.post(kHooks + "/" + b.id + "/deliveries/" + str(d, "id") + "/replay", "", t.token).status ==
        404);
  CHECK(t.edge.get(kHooks + "/" + b.id + "/deliveries/" + str(d, "id"), t.token).status == 404);
  const std::string globex = t.edge.token_with("globex", kAllMail);
  CHECK(t.edge.post("/api/mail/webhooks/" + a.id + "/deliveries/" + str(d, "id") + "/replay", "", globex)
            .status == 404);
  CHECK(t.edge.get("/api/mail/webhooks/" + a.id + "/deliveries/" + str(d, "id"), globex).status == 404);
  CHECK(t.receiver.hits("/in").size() == 2);
}

TEST_CASE("webhooks: no answer and a slow answer are failed attempts with the reason") {
  HookEdge t({60'000});
  // A port nobody listens on: bound, then closed.
  int closed_port = 0;
  {
    httplib::Server probe;
    closed_port = probe.bind_to_any_port("127.0.0.1");
  }
  auto r = t.edge.post(
      kHooks, R"({"url":"http://127.0.0.1:)" + std::to_string(closed_port) + R"(/x","events":["sent"]})",
      t.token);
  REQUIRE(r.status == 201);
  const std::string nowhere = str(r.data(), "id");
  t.record("sent", "log_1", "ali@example.net");
  auto refused = t.wait_delivery(nowhere, "pending", 1);
  CHECK(refused.at("lastStatusCode").is_null());
  CHECK_FALSE(str(refused, "lastError").empty());
  CHECK(str(refused, "nextAttemptAt") == "2026-11-18T11:07:40.000Z");

  // Slower than webhook_timeout_ms (2 s): the attempt fails, and will be retried.
  auto slow = t.endpoint("/slow", R"(["deferred"])");
  t.receiver.set_delay(std::chrono::milliseconds(3000));
  t.record("deferred", "log_2", "ali@example.net");
  REQUIRE(t.receiver.wait_for("/slow", 1).size() == 1);
  auto timed_out = t.wait_delivery(slow.id, "pending", 1);
  CHECK(timed_out.at("lastStatusCode").is_null());
  CHECK_FALSE(str(timed_out, "lastError").empty());
  t.receiver.set_delay(std::chrono::milliseconds(0));
}

TEST_CASE("webhooks: a disabled endpoint gets nothing new; a deleted one's queued jobs are dropped") {
  HookEdge t({60'000});
  auto a = t.endpoint("/a", R"(["delivered"])");
  t.receiver.script("/a", {500});
  t.record("delivered", "log_1", "ali@example.net");
  t.wait_delivery(a.id, "pending", 1);

  // Disabled while a retry waits: the retry is not sent and the delivery fails, saying why.
  REQUIRE(t.edge.patch(kHooks + "/" + a.id, R"({"enabled":false})", t.token).status == 200);
  t.record("delivered", "log_2", "ayse@example.net");  // not queued at all
  t.advance(60'000);
  auto failed = t.wait_delivery(a.id, "failed", 2);
  CHECK(str(failed, "lastError") == "the endpoint is disabled");
  CHECK(t.receiver.hits("/a").size() == 1);
  CHECK(t.deliveries(a.id).header("X-Total-Count") == "1");
  // Enabled again, a replay delivers it.
  REQUIRE(t.edge.patch(kHooks + "/" + a.id, R"({"enabled":true})", t.token).status == 200);
  REQUIRE(
      t.edge.post(kHooks + "/" + a.id + "/deliveries/" + str(failed, "id") + "/replay", "", t.token).status ==
      200);
  t.wait_delivery(a.id, "delivered", 3);
  CHECK(t.receiver.hits("/a").size() == 2);

  // Deleted while a retry waits: the job is dropped, nothing is sent, the deliveries are gone.
  auto b = t.endpoint("/b", R"(["bounced"])");
  t.receiver.script("/b", {500});
  t.record("bounced", "log_3", "gone@example.net");
  REQUIRE(t.receiver.wait_for("/b", 1).size() == 1);
  t.wait_delivery(b.id, "pending", 1);
  CHECK(t.outbox_size() == 1);
  REQUIRE(t.edge.del(kHooks + "/" + b.id, t.token).status == 200);
  t.advance(60'000);
  for (int i = 0; i < 200 && t.outbox_size() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  CHECK(t.outbox_size() == 0);
  CHECK(t.receiver.hits("/b").size() == 1);
  auto& app = t.edge.server->app();
  std::size_t left = 0;
  REQUIRE(app.kv
              ->read([&](const store::ReadTxn& txn) -> core::Status {
                txn.scan(app.mail_table, edge::mail::webhook_delivery_key(t.company_id, b.id, ""),
                         [&](std::string_view, std::string_view) {
                           ++left;
                           return true;
                         });
                return {};
              })
              .ok());
  CHECK(left == 0);
}

TEST_SUITE_END();
