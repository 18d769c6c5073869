// Subscribing to a status page (docs/status-subscribers.md): POST /api/v1/status/{slug}/subscribe for the
// webhook and Telegram channels and its errors, the bound on new subscriptions, secrets sealed at rest, the
// dashboard's list and delete, and the preferences page (filters, CSRF, unsubscribe).

#include <doctest/doctest.h>

#include <regex>

#include "edge/platform/record_json.h"
#include "edge/status/subscribers.h"
#include "status_subscriber_support.h"

using namespace status_test;
namespace json = core::json;

namespace {

std::string hook_body(const std::string& extra = "") {
  return R"({"type":"webhook","webhookUrl":"https://hooks.example.test/status")" + extra + "}";
}

// The stored record of the only subscriber of the page.
json::object stored_subscriber(SubscriberEdge& edge) {
  auto all = edge::status::list_records(edge.app(),
                                        edge::status::subscriber_prefix(edge.company_id(), edge.page_id));
  REQUIRE(all);
  REQUIRE(all->size() == 1);
  return all->front();
}

std::string csrf_of(const std::string& html) {
  std::smatch m;
  REQUIRE(std::regex_search(html, m, std::regex(R"re(name="csrf" value="([^"]+)")re")));
  return m[1];
}

}  // namespace

TEST_SUITE("status_subscribe") {
  TEST_CASE("a webhook subscription answers the management token once, as webhookSecret too") {
    SubscriberEdge edge;
    auto r = edge.post(kSubscribe, hook_body());
    REQUIRE(r.status == 201);
    CHECK(r.header("Access-Control-Allow-Origin") == "*");
    const std::string token = str(r.json, "managementToken");
    CHECK(token.rfind("smt_", 0) == 0);
    CHECK(token.size() == 4 + 43);
    CHECK(str(r.json, "webhookSecret") == token);
    CHECK(str(r.json, "status") == "verified");
    CHECK(str(r.json, "topic") == "all");
    CHECK(r.json.at("componentIds") == json::value(json::array{}));

    // At rest: the token sealed (AES-256-GCM) and its hash, never the plaintext.
    json::object rec = stored_subscriber(edge);
    const std::string sealed = edge::record::str(rec, "managementToken");
    CHECK(sealed.rfind("g1.", 0) == 0);
    CHECK(core::to_json(rec).find(token) == std::string::npos);
    auto opened = edge::status::unseal_member(edge.app(), edge.company_id(), rec, "managementToken");
    REQUIRE(opened);
    CHECK(*opened == token);

    // The dashboard lists it without any secret.
    auto list = edge.subscribers();
    REQUIRE(list.size() == 1);
    const auto& view = list[0].as_object();
    CHECK(view.at("id") == rec.at("id"));
    CHECK(view.at("type") == "webhook");
    CHECK(view.at("webhookUrl") == "https://hooks.example.test/status");
    for (const char* secret : {"managementToken", "tokenHash", "botToken", "webhookSecret"})
      CHECK_FALSE(view.contains(secret));
    CHECK(core::to_json(list).find(token) == std::string::npos);
  }

  TEST_CASE(
      "topic and component filters are stored; bad input is refused with exact codes and stores nothing") {
    SubscriberEdge edge;
    const std::string api = edge.component("API");
    auto r = edge.post(kSubscribe, hook_body(R"(,"topic":"incidents","componentIds":[")" + api + R"("])"));
    REQUIRE(r.status == 201);
    CHECK(str(r.json, "topic") == "incidents");
    CHECK(r.json.at("componentIds") == json::value(json::array{json::value(api)}));
    edge.del(edge.subscribers_path() + "/" + str(r.json, "id"), edge.token);

    struct Case {
      std::string body;
      int status;
      const char* code;
    };
    const Case cases[] = {
        {"not json", 400, "invalid_json"},
        {"[1]", 400, "invalid_body"},
        {"{}", 422, "missing_field"},
        {R"({"type":7})", 422, "invalid_field"},
        {R"({"type":"sms"})", 422, "invalid_type"},
        {R"({"type":"webhook"})", 422, "missing_field"},
        {R"({"type":"webhook","webhookUrl":"ftp://x.test/"})", 422, "invalid_url"},
        {R"({"type":"webhook","webhookUrl":"https://user:pw@x.test/"})", 422, "invalid_url"},
        {hook_body(R"(,"topic":"everything")"), 422, "invalid_topic"},
        {hook_body(R"(,"topic":3)"), 422, "invalid_topic"},
        {hook_body(R"(,"componentIds":"x")"), 422, "invalid_field"},
        {hook_body(R"(,"componentIds":["cmp_nope"])"), 404, "component_not_found"},
        {hook_body(R"(,"lang":"de")"), 422, "invalid_field"},
        {R"({"type":"email"})", 422, "missing_field"},
        {R"({"type":"email","email":"not-an-address"})", 422, "invalid_email"},
        {R"({"type":"telegram","botToken":"1:a"})", 422, "missing_field"},
        {R"({"type":"telegram","chatId":"12 34","botToken":"1:a"})", 422, "invalid_field"},
        {R"({"type":"telegram","chatId":42,"botToken":"no-colon"})", 422, "invalid_field"},
        {R"({"type":"telegram","chatId":42})", 422, "missing_field"},
    };
    for (const Case& c : cases) {
      auto res = edge.post(kSubscribe, c.body);
      INFO(c.body << " -> " << res.body);
      CHECK(res.status == c.status);
      CHECK(res.error() == c.code);
      CHECK(res.json.as_object().at("message").is_string());
    }
    CHECK(edge.subscribers().empty());
  }

  TEST_CASE("an unknown page is 404, a page without subscribers 403; the preflight is open") {
    SubscriberEdge edge;
    auto r = edge.post("/api/v1/status/no-such-page/subscribe", hook_body());
    CHECK(r.status == 404);
    CHECK(r.error() == "page_not_found");
    CHECK(
        edge.patch(kDash + "/pages/" + edge.page_id, R"({"subscribersEnabled":false})", edge.token).status ==
        200);
    r = edge.post(kSubscribe, hook_body());
    CHECK(r.status == 403);
    CHECK(r.error() == "subscribers_disabled");
    CHECK(edge.subscribers().empty());

    auto pre = edge.send("OPTIONS", kSubscribe, "",
                         {{"Origin", "https://elsewhere.test"}, {"Access-Control-Request-Method", "POST"}});
    CHECK(pre.status == 204);
    CHECK(pre.header("Access-Control-Allow-Origin") == "*");
    CHECK(pre.header("Access-Control-Allow-Headers") == "Content-Type");
  }

  TEST_CASE("new subscriptions are bounded per client address") {
    edge::Config c = subscriber_config();
    c.status.subscribe_rate_limit = {2, 600'000};
    SubscriberEdge edge(c);
    CHECK(edge.post(kSubscribe, hook_body()).status == 201);
    CHECK(edge.post(kSubscribe, hook_body()).status == 201);
    auto r = edge.post(kSubscribe, hook_body());
    CHECK(r.status == 429);
    CHECK(r.error() == "rate_limited");
    CHECK(r.header("Retry-After") == "300");
    CHECK(edge.subscribers().size() == 2);
  }

  TEST_CASE("email subscriptions need a configured relay") {
    SubscriberEdge edge;  // no smtp relay in this configuration
    auto r = edge.post(kSubscribe, R"({"type":"email","email":"ali@example.test"})");
    CHECK(r.status == 422);
    CHECK(r.error() == "channel_unavailable");
    CHECK(edge.subscribers().empty());
  }

  TEST_CASE("telegram: the confirmation message verifies; a refusal or no answer stores nothing") {
    BotApi bot;
    edge::Config c = subscriber_config();
    c.status.telegram_api_base = bot.base();
    SubscriberEdge edge(c);
    auto r = edge.post(kSubscribe, R"({"type":"telegram","chatId":-100123,"botToken":")" + bot.good_token +
                                       R"(","lang":"tr"})");
    REQUIRE(r.status == 201);
    CHECK(str(r.json, "status") == "verified");
    auto calls = bot.http.requests();
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].path == "/bot" + bot.good_token + "/sendMessage");
    auto sent = core::parse_json_object(calls[0].body);
    REQUIRE(sent);
    CHECK(sent->at("chat_id") == "-100123");
    CHECK(std::string(sent->at("text").as_string()) == "Acme durum bildirimlerine abone oldunuz.");
    json::object rec = stored_subscriber(edge);
    CHECK(edge::record::str(rec, "chatId") == "-100123");
    CHECK(edge::record::str(rec, "botToken").rfind("g1.", 0) == 0);
    CHECK(core::to_json(rec).find(bot.good_token) == std::string::npos);
    auto opened = edge::status::unseal_member(edge.app(), edge.company_id(), rec, "botToken");
    REQUIRE(opened);
    CHECK(*opened == bot.good_token);

    auto refused = edge.post(kSubscribe, R"({"type":"telegram","chatId":42,"botToken":"999:wrong"})");
    CHECK(refused.status == 422);
    CHECK(refused.error() == "telegram_refused");
    CHECK(std::string(refused.json.at("message").as_string()) == "Telegram answered 401: Unauthorized");
    auto no_chat =
        edge.post(kSubscribe, R"({"type":"telegram","chatId":"404","botToken":")" + bot.good_token + R"("})");
    CHECK(no_chat.status == 422);
    CHECK(no_chat.error() == "telegram_refused");
    CHECK(std::string(no_chat.json.at("message").as_string()) ==
          "Telegram answered 400: Bad Request: chat not found");
    CHECK(edge.subscribers().size() == 1);

    edge.app().config.status.telegram_api_base = "http://127.0.0.1:1";
    auto gone =
        edge.post(kSubscribe, R"({"type":"telegram","chatId":42,"botToken":")" + bot.good_token + R"("})");
    CHECK(gone.status == 502);
    CHECK(gone.error() == "telegram_unreachable");
    CHECK(edge.subscribers().size() == 1);
  }

  TEST_CASE("the dashboard deletes a subscriber; permissions and other companies are enforced") {
    SubscriberEdge edge;
    const std::string token = edge.subscribe_ok(hook_body());
    const std::string id = str(edge.subscribers()[0], "id");
    const std::string viewer = edge.token_with("acme", {"status.view"});
    CHECK(edge.get(edge.subscribers_path(), viewer).status == 200);
    auto refused = edge.del(edge.subscribers_path() + "/" + id, viewer);
    CHECK(refused.status == 403);
    CHECK(refused.error() == "forbidden");
    const std::string other = edge.token_with("globex", {"status.manage"});
    auto foreign =
        edge.get("/api/v1/dashboard/companies/globex/pages/" + edge.page_id + "/subscribers", other);
    CHECK(foreign.status == 404);
    CHECK(foreign.error() == "page_not_found");
    CHECK(edge.get(edge.subscribers_path() + "/sub_nope/deliveries", edge.token).error() ==
          "subscriber_not_found");

    CHECK(edge.get("/p/acme-status/preferences?token=" + token).status == 200);
    CHECK(edge.del(edge.subscribers_path() + "/" + id, edge.token).status == 204);
    CHECK(edge.subscribers().empty());
    CHECK(edge.del(edge.subscribers_path() + "/" + id, edge.token).status == 404);
    // The token died with it.
    CHECK(edge.get("/p/acme-status/preferences?token=" + token).status == 404);
  }

  TEST_CASE("deleting the page removes its subscribers, their token indexes and delivery logs") {
    SubscriberEdge edge;
    const std::string token = edge.subscribe_ok(hook_body());
    edge.enqueue("incident.updated");
    auto& app = edge.app();
    // Keys starting with `prefix` and holding `part`.
    auto count = [&](std::string_view prefix, std::string_view part) {
      std::size_t n = 0;
      REQUIRE(app.kv
                  ->read([&](const store::ReadTxn& txn) -> core::Status {
                    n = 0;
                    txn.scan(app.status_table, prefix, [&](std::string_view key, std::string_view) {
                      if (key.find(part) != std::string_view::npos) ++n;
                      return true;
                    });
                    return {};
                  })
                  .ok());
      return n;
    };
    CHECK(count("c/", "/subscriber/") == 1);
    CHECK(count("subtoken/", "") == 1);
    REQUIRE(edge.worker().fan_out().ok());
    CHECK(count("c/", "/subdelivery/") >= 1);
    CHECK(edge.del(kDash + "/pages/" + edge.page_id, edge.token).status == 204);
    CHECK(count("c/", "/subscriber/") == 0);
    CHECK(count("subtoken/", "") == 0);
    CHECK(count("c/", "/subdelivery/") == 0);
    CHECK(edge.get("/p/acme-status/preferences?token=" + token).status == 404);
  }

  TEST_CASE("the preferences page changes the filters with the token and its CSRF token, and unsubscribes") {
    SubscriberEdge edge;
    const std::string api = edge.component("API"), web = edge.component("Web");
    const std::string token = edge.subscribe_ok(hook_body(R"(,"lang":"tr")"));
    const std::string path = "/p/acme-status/preferences?token=" + token;

    auto page = edge.get(path);
    REQUIRE(page.status == 200);
    CHECK(page.header("Content-Type") == "text/html; charset=utf-8");
    CHECK(page.header("Content-Language") == "tr");
    CHECK(page.body.find("Bildirim tercihleri") != std::string::npos);
    CHECK(page.body.find(R"(value="all" checked)") != std::string::npos);
    CHECK(page.body.find("component_" + api) != std::string::npos);
    CHECK(page.body.find(token) != std::string::npos);  // the form's action carries it
    auto en = edge.get(path + "&lang=en");
    CHECK(en.body.find("Notification preferences") != std::string::npos);
    const std::string csrf = csrf_of(page.body);

    // Without the CSRF token, or with another's, nothing changes.
    const std::string form = "topic=maintenance&component_" + web + "=on";
    auto forged = edge.post(path, form, "", "application/x-www-form-urlencoded");
    CHECK(forged.status == 403);
    forged = edge.post(path, "csrf=" + csrf + "x&" + form, "", "application/x-www-form-urlencoded");
    CHECK(forged.status == 403);
    CHECK(edge.subscribers()[0].at("topic") == "all");
    // A wrong or missing token is a 404 page.
    CHECK(edge.get("/p/acme-status/preferences?token=smt_wrong").status == 404);
    CHECK(edge.get("/p/acme-status/preferences").status == 404);
    CHECK(edge.get("/p/other-page/preferences?token=" + token).status == 404);

    auto saved = edge.post(path, "csrf=" + csrf + "&" + form, "", "application/x-www-form-urlencoded");
    REQUIRE(saved.status == 200);
    CHECK(saved.body.find(R"(id="saved")") != std::string::npos);
    CHECK(saved.body.find(R"(value="maintenance" checked)") != std::string::npos);
    auto view = edge.subscribers()[0].as_object();
    CHECK(view.at("topic") == "maintenance");
    CHECK(view.at("componentIds") == json::value(json::array{json::value(web)}));

    // A topic outside the three is refused and changes nothing.
    auto bad = edge.post(path, "csrf=" + csrf + "&topic=everything", "", "application/x-www-form-urlencoded");
    CHECK(bad.status == 422);
    CHECK(edge.subscribers()[0].at("topic") == "maintenance");

    auto confirm = edge.get("/p/acme-status/unsubscribe?token=" + token);
    CHECK(confirm.status == 200);
    CHECK(confirm.body.find(R"(id="unsubscribe-button")") != std::string::npos);
    CHECK(edge.subscribers().size() == 1);  // a GET changes nothing
    auto gone = edge.post("/p/acme-status/unsubscribe?token=" + token, "List-Unsubscribe=One-Click", "",
                          "application/x-www-form-urlencoded");
    CHECK(gone.status == 200);
    CHECK(gone.body.find(R"(id="unsubscribed")") != std::string::npos);
    CHECK(edge.subscribers().empty());
  }
}
