// Deliveries of status events to subscribers (docs/status-subscribers.md, "Delivery"), with the worker
// driven by the test and the manual clock: the signed webhook body of the spec, retries with backoff until
// success or until the attempts are spent, topic and component filters, the email double opt-in and
// RFC 8058 one-click unsubscribe through a real SMTP server, Telegram through a local Bot API, and the
// delivery log.

#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <regex>

#include "../native/smtp_sink.h"
#include "core/bytes.h"
#include "core/date.h"
#include "edge/platform/record_json.h"
#include "native/mail/mime_parse.h"
#include "status_subscriber_support.h"

using namespace status_test;
namespace json = core::json;

namespace {

constexpr const char* kNow = "2026-11-18T11:06:40.000Z";  // testing::TestEdge::kStart

// `sha256=` and the hex HMAC-SHA256 of `body` under `secret`, computed with OpenSSL.
std::string openssl_signature(const std::string& secret, const std::string& body) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), mac, &n);
  return "sha256=" + core::hex_encode(std::span<const std::uint8_t>(mac, n));
}

// A webhook receiver: records each POST and answers the next scripted status for its path (200 once the
// script is spent).
struct Receiver {
  test_http::LocalHttpServer http;
  std::mutex mutex;
  std::map<std::string, std::deque<int>> script;

  Receiver() {
    http.server().Post(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      http.record(req);
      std::lock_guard lock(mutex);
      auto& s = script[req.path];
      res.status = s.empty() ? 200 : s.front();
      if (!s.empty()) s.pop_front();
    });
    http.start();
  }
  std::string url(const std::string& path) const { return http.url(path); }
  std::vector<test_http::RecordedRequest> to(const std::string& path) {
    std::vector<test_http::RecordedRequest> out;
    for (auto& r : http.requests())
      if (r.path == path) out.push_back(r);
    return out;
  }
};

std::string hook(Receiver& rx, const std::string& path, const std::string& extra = "") {
  return R"({"type":"webhook","webhookUrl":")" + rx.url(path) + "\"" + extra + "}";
}

// The header field `name` of a raw message (unfolded), or "".
std::string header_of(const std::string& message, const std::string& name) {
  std::smatch m;
  std::regex re("(^|\r\n)" + name + ": ([^\r\n]*(\r\n[ \t][^\r\n]*)*)", std::regex::icase);
  if (!std::regex_search(message, m, re)) return "";
  std::string v = m[2];
  return std::regex_replace(v, std::regex("\r\n[ \t]+"), " ");
}

std::string decoded_text(const std::string& message) {
  auto parsed = native::mail::parse_mime(message);
  REQUIRE(parsed);
  return parsed->text;
}

}  // namespace

TEST_SUITE("status_deliveries") {
  TEST_CASE("a webhook gets the spec's body, signed with its management token, with X-Service-Event") {
    Receiver rx;
    SubscriberEdge edge;
    const std::string token = edge.subscribe_ok(hook(rx, "/a"));
    const std::string event_id = edge.enqueue("incident.updated", {}, incident_data());
    edge.pump();

    auto hits = rx.to("/a");
    REQUIRE(hits.size() == 1);
    const auto& h = hits[0];
    CHECK(h.header("X-Service-Event") == "incident.updated");
    CHECK(h.header("Content-Type") == "application/json");
    CHECK(h.header("X-Service-Signature") == openssl_signature(token, h.body));
    auto body = core::parse_json(h.body);
    REQUIRE(body);
    CHECK(*body == json::value(json::object{{"event", "incident.updated"},
                                            {"pageSlug", "acme-status"},
                                            {"data", incident_data()},
                                            {"timestamp", kNow}}));
    // The event left the outbox; the delivery log says delivered.
    auto events = edge::status::list_records(edge.app(), "ev/");
    REQUIRE(events);
    CHECK(events->empty());
    const std::string sid = str(edge.subscribers()[0], "id");
    auto log = edge.deliveries(sid);
    REQUIRE(log.size() == 1);
    const auto& d = log[0].as_object();
    CHECK(d.at("status") == json::value("delivered"));
    CHECK(d.at("event") == json::value("incident.updated"));
    CHECK(d.at("eventId") == json::value(event_id));
    CHECK(d.at("attempts") == json::value(1));
    CHECK(d.at("deliveredAt") == json::value(kNow));
    CHECK(h.header("X-Service-Delivery") == std::string(d.at("id").as_string()));
    CHECK_FALSE(d.contains("body"));
    // Nothing more is queued: another pump sends nothing.
    edge.pump();
    CHECK(rx.to("/a").size() == 1);
  }

  TEST_CASE("a failing webhook is retried with backoff and the same bytes until it answers 2xx") {
    Receiver rx;
    rx.script["/flaky"] = {503, 500};
    SubscriberEdge edge;
    edge.subscribe_ok(hook(rx, "/flaky"));
    edge.enqueue("incident.resolved", {}, json::object{{"incidentId", "inc_1"}});
    edge.pump();
    const std::string sid = str(edge.subscribers()[0], "id");
    auto d = edge.deliveries(sid)[0].as_object();
    CHECK(d.at("status") == json::value("pending"));
    CHECK(d.at("attempts") == json::value(1));
    CHECK(d.at("lastError") == json::value("HTTP 503"));
    // Equal jitter: the first retry waits between half the base (500 ms) and the base (1000 ms).
    auto next = core::parse_timestamp(d.at("nextAttemptAt").as_string());
    REQUIRE(next);
    CHECK(*next >= testing::TestEdge::kStart + 500);
    CHECK(*next <= testing::TestEdge::kStart + 1000);

    edge.pump();  // not due yet
    CHECK(rx.to("/flaky").size() == 1);
    edge.clock.advance_ms(1000);
    edge.pump();
    CHECK(rx.to("/flaky").size() == 2);
    d = edge.deliveries(sid)[0].as_object();
    CHECK(d.at("lastError") == json::value("HTTP 500"));
    next = core::parse_timestamp(d.at("nextAttemptAt").as_string());
    REQUIRE(next);
    // The second retry: between 1000 and 2000 ms after the second attempt.
    CHECK(*next >= testing::TestEdge::kStart + 1000 + 1000);
    CHECK(*next <= testing::TestEdge::kStart + 1000 + 2000);
    edge.clock.advance_ms(2000);
    edge.pump();
    auto hits = rx.to("/flaky");
    REQUIRE(hits.size() == 3);
    CHECK(hits[0].body == hits[2].body);
    CHECK(hits[0].header("X-Service-Delivery") == hits[2].header("X-Service-Delivery"));
    d = edge.deliveries(sid)[0].as_object();
    CHECK(d.at("status") == json::value("delivered"));
    CHECK(d.at("attempts") == json::value(3));
    CHECK(d.at("lastError").is_null());
    CHECK(d.at("history").as_array().size() == 3);
    CHECK(d.at("history").as_array()[0].at("status") == json::value(503));
  }

  TEST_CASE("a delivery fails for good once its attempts are spent") {
    Receiver rx;
    rx.script["/down"] = {503, 503, 503, 503, 503};
    SubscriberEdge edge;  // 4 attempts at most
    edge.subscribe_ok(hook(rx, "/down"));
    edge.enqueue("maintenance.started");
    for (int i = 0; i < 6; ++i) {
      edge.pump();
      edge.clock.advance_ms(10'000);
    }
    CHECK(rx.to("/down").size() == 4);
    auto d = edge.deliveries(str(edge.subscribers()[0], "id"))[0].as_object();
    CHECK(d.at("status") == json::value("failed"));
    CHECK(d.at("attempts") == json::value(4));
    CHECK(d.at("nextAttemptAt").is_null());
  }

  TEST_CASE("topic and component filters decide who gets an event") {
    Receiver rx;
    SubscriberEdge edge;
    const std::string api = edge.component("API"), web = edge.component("Web");
    edge.subscribe_ok(hook(rx, "/all"));
    edge.subscribe_ok(hook(rx, "/incidents", R"(,"topic":"incidents")"));
    edge.subscribe_ok(hook(rx, "/maintenance", R"(,"topic":"maintenance")"));
    edge.subscribe_ok(hook(rx, "/api", R"(,"componentIds":[")" + api + R"("])"));
    edge.subscribe_ok(
        hook(rx, "/web-incidents", R"(,"topic":"incidents","componentIds":[")" + web + R"("])"));
    edge.enqueue("incident.updated", {api}, incident_data());
    edge.enqueue("maintenance.scheduled", {web});
    edge.enqueue("incident.resolved", {});  // page-wide: every component filter matches
    edge.pump();
    auto events_of = [&](const std::string& path) {
      std::vector<std::string> out;
      for (auto& h : rx.to(path)) out.push_back(h.header("X-Service-Event"));
      std::sort(out.begin(), out.end());
      return out;
    };
    using V = std::vector<std::string>;
    CHECK(events_of("/all") == V{"incident.resolved", "incident.updated", "maintenance.scheduled"});
    CHECK(events_of("/incidents") == V{"incident.resolved", "incident.updated"});
    CHECK(events_of("/maintenance") == V{"maintenance.scheduled"});
    CHECK(events_of("/api") == V{"incident.resolved", "incident.updated"});
    CHECK(events_of("/web-incidents") == V{"incident.resolved"});
  }

  TEST_CASE("a subscriber deleted with deliveries queued gets nothing more") {
    Receiver rx;
    rx.script["/gone"] = {503};
    SubscriberEdge edge;
    edge.subscribe_ok(hook(rx, "/gone"));
    edge.enqueue("incident.updated", {}, incident_data());
    edge.pump();
    const std::string sid = str(edge.subscribers()[0], "id");
    CHECK(edge.del(edge.subscribers_path() + "/" + sid, edge.token).status == 204);
    edge.clock.advance_ms(60'000);
    edge.pump();
    CHECK(rx.to("/gone").size() == 1);
    auto jobs = edge::status::list_records(edge.app(), "sdq/");
    REQUIRE(jobs);
    CHECK(jobs->empty());
  }

  TEST_CASE("email: double opt-in, then notifications with RFC 8058 one-click unsubscribe") {
    std::string failure;
    auto sink = test_smtp::SmtpSink::start({}, failure);
    REQUIRE_MESSAGE(sink, failure);
    edge::Config c = subscriber_config();
    c.status.smtp_relay = "127.0.0.1:" + std::to_string(sink->port());
    c.status.mail_from = "status@acme.example.test";
    SubscriberEdge edge(c);
    auto r = edge.post(kSubscribe, R"({"type":"email","email":"ali@example.test"})", "", "application/json");
    REQUIRE(r.status == 201);
    CHECK(str(r.json, "status") == "pending");
    const std::string token = str(r.json, "managementToken");
    const std::string sid = str(r.json, "id");

    // A pending subscriber gets the confirmation mail and nothing else.
    edge.enqueue("incident.updated", {}, incident_data());
    edge.pump();
    auto mails = sink->received();
    REQUIRE(mails.size() == 1);
    CHECK(mails[0].mail_from == "status@acme.example.test");
    CHECK(mails[0].rcpt_to == std::vector<std::string>{"ali@example.test"});
    CHECK(header_of(mails[0].data, "Subject") == "Confirm your subscription to Acme");
    const std::string text = decoded_text(mails[0].data);
    std::smatch m;
    REQUIRE(std::regex_search(
        text, m, std::regex(R"((http://[^\s]+/p/acme-status/confirm\?token=([A-Za-z0-9_-]+)))")));
    const std::string link = m[1], confirm_token = m[2];
    CHECK(confirm_token != token);  // the opt-in secret is only in the mail
    CHECK(edge.deliveries(sid)[0].at("event") == json::value("subscription.confirm"));

    const std::string confirm_path = link.substr(link.find("/p/"));
    auto page = edge.get(confirm_path);
    CHECK(page.status == 200);
    CHECK(page.body.find(R"(id="confirm-button")") != std::string::npos);
    CHECK(edge.subscribers()[0].at("status") ==
          json::value("pending"));  // a GET (a link scanner) confirms nothing
    CHECK(edge.post("/p/acme-status/confirm?token=" + token, "", "", "application/x-www-form-urlencoded")
              .status == 404);  // the management token is not the opt-in token
    auto confirmed = edge.post(confirm_path, "", "", "application/x-www-form-urlencoded");
    CHECK(confirmed.status == 200);
    CHECK(confirmed.body.find(R"(id="confirmed")") != std::string::npos);
    CHECK(edge.subscribers()[0].at("status") == json::value("verified"));

    edge.enqueue("incident.updated", {}, incident_data());
    edge.pump();
    mails = sink->received();
    REQUIRE(mails.size() == 2);
    const std::string& mail = mails[1].data;
    CHECK(header_of(mail, "Subject") == "[Acme] Incident update: Database down");
    const std::string unsubscribe = edge.url() + "/p/acme-status/unsubscribe?token=" + token;
    CHECK(header_of(mail, "List-Unsubscribe") == "<" + unsubscribe + ">");
    CHECK(header_of(mail, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
    const std::string body = decoded_text(mail);
    CHECK(body.find("Cause found.") != std::string::npos);
    CHECK(body.find("(identified)") != std::string::npos);
    CHECK(body.find(edge.url() + "/p/acme-status/preferences?token=" + token) != std::string::npos);

    // The one-click POST a mail client sends: no cookie, no CSRF token, just the URL and this body.
    auto one_click = edge.post(unsubscribe.substr(edge.url().size()), "List-Unsubscribe=One-Click", "",
                               "application/x-www-form-urlencoded");
    CHECK(one_click.status == 200);
    CHECK(edge.subscribers().empty());
    edge.enqueue("incident.resolved");
    edge.pump();
    CHECK(sink->received().size() == 2);
  }

  TEST_CASE("a maintenance window's four notifications reach a webhook and a confirmed email subscriber") {
    std::string failure;
    auto sink = test_smtp::SmtpSink::start({}, failure);
    REQUIRE_MESSAGE(sink, failure);
    Receiver rx;
    edge::Config c = subscriber_config();
    c.status.maintenance_tick_ms = 0;  // the test moves the clock and ticks
    c.status.smtp_relay = "127.0.0.1:" + std::to_string(sink->port());
    c.status.mail_from = "status@acme.example.test";
    SubscriberEdge edge(c);
    const std::string api = edge.component("API");
    const std::string token = edge.subscribe_ok(hook(rx, "/m"));
    auto r = edge.post(kSubscribe, R"({"type":"email","email":"ali@example.test"})");
    REQUIRE(r.status == 201);
    edge.pump();
    auto mails = sink->received();
    REQUIRE(mails.size() == 1);
    std::smatch m;
    const std::string text = decoded_text(mails[0].data);
    REQUIRE(std::regex_search(text, m,
                              std::regex(R"(http://[^\s]+(/p/acme-status/confirm\?token=[A-Za-z0-9_-]+))")));
    REQUIRE(edge.post(m[1].str(), "", "", "application/x-www-form-urlencoded").status == 200);

    constexpr std::int64_t kHour = 3'600'000;
    const std::int64_t t0 = edge.clock.now_ms();
    edge.create("/pages/" + edge.page_id + "/maintenances",
                R"({"title":{"tr":"Veritabanı bakımı","en":"Database upgrade"},"scheduledStart":")" +
                    core::format_timestamp(t0 + 3 * kHour) + R"(","end":")" +
                    core::format_timestamp(t0 + 5 * kHour) + R"(","affectedComponentIds":[")" + api +
                    R"("]})");
    edge.pump();
    // The reminder an hour before, the start and the end, each noticed by the ticker at its time.
    for (std::int64_t at : {t0 + 2 * kHour, t0 + 3 * kHour, t0 + 5 * kHour}) {
      edge.clock.set_ms(at);
      auto ticked = edge.app().status_maintenance->tick(at);
      REQUIRE(ticked);
      CHECK(*ticked == 1);
      edge.pump();
    }

    std::vector<std::string> events;
    for (const auto& h : rx.to("/m")) {
      events.push_back(h.header("X-Service-Event"));
      CHECK(h.header("X-Service-Signature") == openssl_signature(token, h.body));
      auto body = core::parse_json(h.body);
      REQUIRE(body);
      CHECK(body->at("event") == json::value(events.back()));
      CHECK(body->at("data").at("title").at("en") == "Database upgrade");
    }
    CHECK(events == std::vector<std::string>{"maintenance.scheduled", "maintenance.reminder",
                                             "maintenance.started", "maintenance.completed"});
    mails = sink->received();
    REQUIRE(mails.size() == 5);
    std::vector<std::string> subjects;
    for (std::size_t i = 1; i < mails.size(); ++i) {
      subjects.push_back(header_of(mails[i].data, "Subject"));
      CHECK(mails[i].rcpt_to == std::vector<std::string>{"ali@example.test"});
      CHECK(header_of(mails[i].data, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
    }
    CHECK(subjects == std::vector<std::string>{"[Acme] Maintenance scheduled: Database upgrade",
                                               "[Acme] Maintenance starts in one hour: Database upgrade",
                                               "[Acme] Maintenance started: Database upgrade",
                                               "[Acme] Maintenance completed: Database upgrade"});
  }

  TEST_CASE("email texts follow the subscriber's language") {
    std::string failure;
    auto sink = test_smtp::SmtpSink::start({}, failure);
    REQUIRE_MESSAGE(sink, failure);
    edge::Config c = subscriber_config();
    c.status.smtp_relay = "127.0.0.1:" + std::to_string(sink->port());
    c.status.mail_from = "status@acme.example.test";
    SubscriberEdge edge(c);
    auto r = edge.send("POST", kSubscribe, R"({"type":"email","email":"ayse@example.test"})",
                       {{"Accept-Language", "tr-TR,tr;q=0.9,en;q=0.5"}});
    REQUIRE(r.status == 201);
    edge.pump();
    auto mails = sink->received();
    REQUIRE(mails.size() == 1);
    const std::string text = decoded_text(mails[0].data);
    CHECK(text.find("Aboneliği onaylamak için") != std::string::npos);
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex(R"(/p/acme-status/confirm\?token=[A-Za-z0-9_-]+)")));
    auto page = edge.post(m[0], "", "", "application/x-www-form-urlencoded");
    CHECK(page.body.find("Abonelik onaylandı") != std::string::npos);
    edge.enqueue("incident.updated", {}, incident_data());
    edge.pump();
    mails = sink->received();
    REQUIRE(mails.size() == 2);
    CHECK(decoded_text(mails[1].data).find("Sebep bulundu.") != std::string::npos);
  }

  TEST_CASE("telegram: notifications go through sendMessage; a busy API is retried") {
    BotApi bot;
    edge::Config c = subscriber_config();
    c.status.telegram_api_base = bot.base();
    SubscriberEdge edge(c);
    edge.subscribe_ok(R"({"type":"telegram","chatId":"@acme_status","botToken":")" + bot.good_token +
                      R"("})");
    bot.busy = true;
    edge.enqueue("incident.updated", {}, incident_data());
    edge.pump();
    const std::string sid = str(edge.subscribers()[0], "id");
    auto d = edge.deliveries(sid)[0].as_object();
    CHECK(d.at("status") == json::value("pending"));
    CHECK(d.at("lastError") == json::value("Telegram answered 429: Too Many Requests: retry after 1"));
    bot.busy = false;
    edge.clock.advance_ms(1000);
    edge.pump();
    auto calls = bot.http.requests();
    REQUIRE(calls.size() == 3);  // confirmation, the refused attempt, the delivered one
    auto sent = core::parse_json_object(calls[2].body);
    REQUIRE(sent);
    CHECK(sent->at("chat_id") == json::value("@acme_status"));
    const std::string text(sent->at("text").as_string());
    CHECK(text.rfind("[Acme] Incident update: Database down\n", 0) == 0);
    CHECK(text.find("Cause found.") != std::string::npos);
    CHECK(edge.deliveries(sid)[0].at("status") == json::value("delivered"));
  }
}
