#pragma once
// What the subscriber suites share: a status edge whose subscriber worker is off (the tests fan out and
// deliver themselves, with the manual clock), a page that takes subscribers, events enqueued through the
// outbox contract (status_events.h) as incidents and maintenance windows will, and a local server speaking
// the Telegram Bot API's sendMessage.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../native/local_http_server.h"
#include "core/json.h"
#include "edge/status/status_events.h"
#include "edge/status/subscriber_worker.h"
#include "status_support.h"

namespace status_test {

inline edge::Config subscriber_config() {
  edge::Config c = unthrottled();
  c.status.subscriber_workers = 0;
  c.status.subscribe_rate_limit = {1'000'000, 1000};
  c.status.delivery_retry_base_ms = 1000;
  c.status.delivery_retry_max_ms = 8000;
  c.status.delivery_max_attempts = 4;
  c.status.delivery_timeout_ms = 5000;
  return c;
}

inline const std::string kSubscribe = "/api/v1/status/acme-status/subscribe";

struct SubscriberEdge : StatusEdge {
  explicit SubscriberEdge(edge::Config config = subscriber_config()) : StatusEdge(std::move(config)) {
    page_id = page();
    auto r = patch(kDash + "/pages/" + page_id, R"({"subscribersEnabled":true})", token);
    REQUIRE(r.status == 200);
  }

  edge::App& app() { return server->app(); }
  edge::status::SubscriberWorker& worker() { return *app().status_subscribers; }

  std::string component(const std::string& name) {
    return create("/pages/" + page_id + "/components", R"({"name":")" + name + R"("})");
  }

  // Subscribes; stops the test unless 201. Answers the management token.
  std::string subscribe_ok(const std::string& body) {
    auto r = post(kSubscribe, body);
    INFO(body << " -> " << r.body);
    REQUIRE(r.status == 201);
    return str(r.json, "managementToken");
  }

  // An event stored in the outbox in its own transaction, as the incident and maintenance code does.
  std::string enqueue(const std::string& event, std::vector<std::string> components = {},
                      core::json::object data = {}) {
    edge::status::StatusEvent e;
    e.event = event;
    e.companyId = company_id();
    e.pageId = page_id;
    e.componentIds = std::move(components);
    e.data = std::move(data);
    e.atMs = clock.now_ms();
    std::string id;
    auto st = app().kv->write([&](store::WriteTxn& txn) -> core::Status {
      id = edge::status::enqueue_event(app(), txn, e);
      return {};
    });
    REQUIRE(st.ok());
    edge::status::events_committed(app());
    return id;
  }

  // Fans out and makes one attempt of every due job.
  void pump() {
    auto fanned = worker().fan_out();
    REQUIRE(fanned);
    auto delivered = worker().deliver_due();
    REQUIRE(delivered);
  }

  std::string company_id() {
    auto page = edge::status::page_by_slug(app(), "acme-status");
    REQUIRE(page);
    return page->companyId;
  }

  std::string subscribers_path() { return kDash + "/pages/" + page_id + "/subscribers"; }

  core::json::array subscribers() {
    auto r = get(subscribers_path(), token);
    REQUIRE(r.status == 200);
    return r.json.as_array();
  }

  core::json::array deliveries(const std::string& subscriber_id) {
    auto r = get(subscribers_path() + "/" + subscriber_id + "/deliveries", token);
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.json.as_array();
  }

  std::string page_id;
};

// The incident.updated body of the spec's Events section.
inline core::json::object incident_data(const std::string& title_en = "Database down") {
  return core::json::object{
      {"incidentId", "inc_1"},
      {"incidentTitle", core::json::object{{"tr", "Veritabanı çalışmıyor"}, {"en", title_en}}},
      {"impact", "major"},
      {"affectedComponentIds", core::json::array{}},
      {"update",
       core::json::object{{"id", "upd_1"},
                          {"status", "identified"},
                          {"body", core::json::object{{"tr", "Sebep bulundu."}, {"en", "Cause found."}}},
                          {"createdAt", "2026-11-18T11:06:40.000Z"}}}};
}

// A local Telegram Bot API: /bot<token>/sendMessage answers {ok:true} for `good_token`, 401 for any other
// token, 400 "chat not found" for chat id `404`, 429 while `busy` is set.
struct BotApi {
  std::string good_token = "123456:ABC-def_ghi";
  std::atomic<bool> busy{false};
  test_http::LocalHttpServer http;

  BotApi() {
    http.server().Post(R"(/bot([^/]+)/sendMessage)", [this](const httplib::Request& req,
                                                            httplib::Response& res) {
      http.record(req);
      if (busy) {
        res.status = 429;
        res.set_content(R"({"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1"})",
                        "application/json");
        return;
      }
      if (req.matches[1] != good_token) {
        res.status = 401;
        res.set_content(R"({"ok":false,"error_code":401,"description":"Unauthorized"})", "application/json");
        return;
      }
      auto body = core::parse_json_object(req.body);
      if (body && body->contains("chat_id") && body->at("chat_id") == core::json::value("404")) {
        res.status = 400;
        res.set_content(R"({"ok":false,"error_code":400,"description":"Bad Request: chat not found"})",
                        "application/json");
        return;
      }
      res.set_content(R"({"ok":true,"result":{"message_id":1}})", "application/json");
    });
    http.start();
  }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(http.port()); }
};

}  // namespace status_test
