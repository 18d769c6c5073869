// Mail: webhook endpoints (spec document 2, "Events"; spec/DECISIONS.md; docs/mail-api.md, "Webhooks") over
// HTTP: create (201, the signing secret once, stored sealed), read, list, update, delete; the checks of url,
// events and the endpoint cap; permissions, other companies, the three path forms; and the mail rate limit
// across these routes (429 with Retry-After). Deliveries have their own suite (mail_webhook_delivery_test).

#include <doctest/doctest.h>

#include "edge/mail/webhooks.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

const std::string kHooks = "/api/companies/acme/webhooks";

// The shared unthrottled edge, with the webhook worker off too.
edge::Config quiet_hooks() {
  edge::Config c = unthrottled();
  c.mail.webhook_workers = 0;
  return c;
}

struct HookEdge {
  TestEdge edge;
  std::string token = edge.token_with("acme", kAllMail);

  explicit HookEdge(edge::Config c = quiet_hooks()) : edge(std::move(c)) {}

  testing::Reply create(const std::string& body, const std::string& tok = "") {
    return edge.post(kHooks, body, tok.empty() ? token : tok);
  }
};

}  // namespace

TEST_CASE("webhooks: create answers 201 with the secret once; reads never show it") {
  HookEdge t;
  auto made = t.create(
      R"({"url":"https://hooks.example.com/mail?source=platform","events":["delivered","bounced","delivered"],"description":"ops"})");
  REQUIRE(made.status == 201);
  CHECK(made.error().empty());
  const auto& hook = made.data().as_object();
  const std::string id = str(hook, "id");
  CHECK(id.rfind("whk_", 0) == 0);
  CHECK(str(hook, "url") == "https://hooks.example.com/mail?source=platform");
  CHECK(hook.at("events") == json::value(json::array{"delivered", "bounced"}));  // each once
  CHECK(str(hook, "description") == "ops");
  CHECK(hook.at("enabled") == json::value(true));
  CHECK(str(hook, "createdAt") == "2026-11-18T11:06:40.000Z");
  const std::string secret = str(hook, "secret");
  CHECK(secret.rfind("whsec_", 0) == 0);
  CHECK(secret.size() == 6 + 32);

  auto read = t.edge.get(kHooks + "/" + id, t.token);
  REQUIRE(read.status == 200);
  CHECK_FALSE(read.data().as_object().contains("secret"));
  json::object without = hook;
  without.erase("secret");
  CHECK(read.data() == json::value(without));
  auto list = t.edge.get(kHooks, t.token);
  CHECK(list.header("X-Total-Count") == "1");
  CHECK(list.data() == json::value(json::array{without}));
  CHECK(list.body.find(secret) == std::string::npos);

  // At rest the secret is sealed: not in the stored record, and it opens only for this endpoint.
  auto& app = t.edge.server->app();
  const std::string cid = app.accounts->company_by_slug("acme")->id;
  auto stored = edge::mail::read_object(app, edge::mail::webhook_key(cid, id));
  REQUIRE(stored.ok());
  REQUIRE(stored->has_value());
  CHECK(core::to_json(**stored).find(secret.substr(6)) == std::string::npos);
  auto opened = edge::mail::webhook_secret(app, cid, **stored);
  REQUIRE(opened.ok());
  CHECK(*opened == secret);
  json::object moved = **stored;
  moved["id"] = "whk_another";
  CHECK_FALSE(edge::mail::webhook_secret(app, cid, moved).ok());

  // Two endpoints get two secrets.
  auto second = t.create(R"({"url":"http://127.0.0.1:9/x","events":["queued"]})");
  REQUIRE(second.status == 201);
  CHECK(str(second.data(), "secret") != secret);
  CHECK(t.edge.get(kHooks, t.token).header("X-Total-Count") == "2");
}

TEST_CASE("webhooks: url, events and the other fields are checked") {
  HookEdge t;
  auto refused = [&](const std::string& body, const std::string& error) {
    auto r = t.create(body);
    CHECK_MESSAGE(r.status == 400, body);
    CHECK_MESSAGE(r.error() == error, body << " -> " << r.body);
  };
  refused(R"({"events":["delivered"]})", "field 'url' is required");
  refused(R"({"url":"https://a.example.com"})", "field 'events' is required");
  refused(R"({"url":"https://a.example.com","events":[]})", "field 'events' must name at least one event");
  refused(R"({"url":"https://a.example.com","events":["delivered","opened"]})",
          "field 'events': unknown event 'opened' (queued, sent, delivered, deferred, bounced, complained, "
          "suppressed)");
  for (const char* url : {"ftp://a.example.com/", "https://user:pass@a.example.com/",
                          "https://a.example.com/#x", "hooks.example.com/mail", "https://a b.example.com/"}) {
    auto r = t.create(std::string(R"({"url":")") + url + R"(","events":["delivered"]})");
    CHECK_MESSAGE(r.status == 400, url);
  }
  CHECK(t.create(R"({"url":42,"events":["delivered"]})").status == 400);
  CHECK(t.create(R"({"url":"https://a.example.com","events":"delivered"})").status == 400);
  CHECK(t.create(R"({"url":"https://a.example.com","events":["delivered"],"enabled":"yes"})").status == 400);
  refused(R"({"url":"https://a.example.com","events":["delivered"],"description":")" + std::string(501, 'd') +
              R"("})",
          "field 'description' must be at most 500 bytes");
  CHECK(t.create("not json").status == 400);
  CHECK(t.edge.get(kHooks, t.token).header("X-Total-Count") == "0");

  // Every event name of spec/DECISIONS.md is accepted.
  auto all = t.create(
      R"({"url":"https://a.example.com","events":["queued","sent","delivered","deferred","bounced","complained","suppressed"]})");
  CHECK(all.status == 201);
  CHECK(all.data().at("events").as_array().size() == 7);

  // At most 20 endpoints per company: the 21st is 422.
  for (int i = 1; i < 20; ++i)
    REQUIRE(t.create(R"({"url":"https://a.example.com","events":["sent"]})").status == 201);
  auto over = t.create(R"({"url":"https://a.example.com","events":["sent"]})");
  CHECK(over.status == 422);
  CHECK(over.body == R"({"data":null,"error":"a company has at most 20 webhook endpoints"})");
  CHECK(t.edge.get(kHooks, t.token).header("X-Total-Count") == "20");
  CHECK(t.edge.get(kHooks + "?limit=5&skip=18", t.token).data().as_array().size() == 2);
}

TEST_CASE("webhooks: update and delete") {
  HookEdge t;
  auto made = t.create(R"({"url":"https://a.example.com/hook","events":["delivered"]})");
  const std::string id = str(made.data(), "id");
  t.edge.clock.advance_ms(1000);

  auto changed =
      t.edge.patch(kHooks + "/" + id, R"({"events":["bounced","complained"],"enabled":false})", t.token);
  REQUIRE(changed.status == 200);
  CHECK(changed.data().at("events") == json::value(json::array{"bounced", "complained"}));
  CHECK(changed.data().at("enabled") == json::value(false));
  CHECK(str(changed.data(), "url") == "https://a.example.com/hook");
  CHECK(str(changed.data(), "updatedAt") == "2026-11-18T11:06:41.000Z");
  CHECK(str(changed.data(), "createdAt") == "2026-11-18T11:06:40.000Z");
  CHECK_FALSE(changed.data().as_object().contains("secret"));
  CHECK(t.edge.get(kHooks + "/" + id, t.token).data() == changed.data());

  auto url =
      t.edge.patch(kHooks + "/" + id, R"({"url":"http://127.0.0.1:8080/in","description":"local"})", t.token);
  CHECK(str(url.data(), "url") == "http://127.0.0.1:8080/in");
  CHECK(str(url.data(), "description") == "local");

  auto empty = t.edge.patch(kHooks + "/" + id, R"({})", t.token);
  CHECK(empty.status == 400);
  CHECK(empty.body == R"({"data":null,"error":"give at least one of url, events, description, enabled"})");
  CHECK(t.edge.patch(kHooks + "/" + id, R"({"url":"nope"})", t.token).status == 400);
  CHECK(t.edge.patch(kHooks + "/" + id, R"({"events":["opened"]})", t.token).status == 400);
  auto missing = t.edge.patch(kHooks + "/whk_nope", R"({"enabled":true})", t.token);
  CHECK(missing.status == 404);
  CHECK(missing.body == R"({"data":null,"error":"no such webhook endpoint"})");

  auto removed = t.edge.del(kHooks + "/" + id, t.token);
  REQUIRE(removed.status == 200);
  CHECK(removed.body == R"({"data":{"id":")" + id + R"(","deleted":true},"error":null})");
  CHECK(t.edge.get(kHooks + "/" + id, t.token).status == 404);
  CHECK(t.edge.del(kHooks + "/" + id, t.token).status == 404);
  CHECK(t.edge.get(kHooks + "/" + id + "/deliveries", t.token).status == 404);
  CHECK(t.edge.get(kHooks, t.token).header("X-Total-Count") == "0");
}

TEST_CASE("webhooks: permissions, other companies, credentials and the three path forms") {
  HookEdge t;
  const std::string id = str(t.create(R"({"url":"https://a.example.com","events":["sent"]})").data(), "id");
  const std::string other = t.edge.token_with("acme", {"logs.view", "suppressions.manage", "send.execute"});
  const std::string denied = R"({"data":null,"error":"access token lacks permission 'webhooks.manage'"})";
  for (auto r :
       {t.edge.get(kHooks, other), t.create(R"({"url":"https://b.example.com","events":["sent"]})", other),
        t.edge.get(kHooks + "/" + id, other), t.edge.patch(kHooks + "/" + id, R"({"enabled":false})", other),
        t.edge.del(kHooks + "/" + id, other), t.edge.get(kHooks + "/" + id + "/deliveries", other),
        t.edge.post(kHooks + "/" + id + "/deliveries/whd_x/replay", "", other)}) {
    CHECK(r.status == 403);
    CHECK(r.body == denied);
  }
  const std::string globex = t.edge.token_with("globex", kAllMail);
  CHECK(t.edge.get("/api/companies/globex/webhooks", t.token).status == 404);
  for (auto r : {t.edge.get("/api/mail/webhooks/" + id, globex),
                 t.edge.get("/api/companies/globex/webhooks/" + id, globex),
                 t.edge.patch("/api/mail/webhooks/" + id, R"({"enabled":false})", globex),
                 t.edge.del("/api/mail/webhooks/" + id, globex),
                 t.edge.get("/api/mail/webhooks/" + id + "/deliveries", globex)}) {
    CHECK(r.status == 404);
    CHECK(r.body == R"({"data":null,"error":"no such webhook endpoint"})");
  }
  CHECK(t.edge.get("/api/mail/webhooks", globex).header("X-Total-Count") == "0");
  CHECK(t.edge.get(kHooks + "/" + id, t.token).data().at("enabled") == json::value(true));
  CHECK(t.edge.get(kHooks).status == 401);

  CHECK(t.edge.get("/api/mail/webhooks/" + id, t.token).status == 200);
  CHECK(t.edge.get("/api/mail/companies/acme/webhooks", t.token).header("X-Total-Count") == "1");
  auto product =
      t.edge.post("/api/mail/webhooks", R"({"url":"https://c.example.com","events":["bounced"]})", t.token);
  CHECK(product.status == 201);
  CHECK(str(product.data(), "secret").rfind("whsec_", 0) == 0);
  CHECK(t.edge.del("/api/mail/companies/acme/webhooks/" + str(product.data(), "id"), t.token).status == 200);
}

TEST_CASE("the mail rate limit covers suppressions, logs, analytics and webhooks: 429 with Retry-After") {
  edge::Config c = quiet_hooks();
  c.mail.rate_limit = {5, 10'000};  // 5 per 10 s: refills one request every 2 s
  HookEdge t(c);
  const std::vector<std::string> paths = {"/api/companies/acme/suppressions", "/api/mail/logs",
                                          "/api/mail/companies/acme/analytics?days=7", "/api/mail/webhooks",
                                          "/api/companies/acme/logs?status=queued"};
  for (const auto& p : paths) CHECK_MESSAGE(t.edge.get(p, t.token).status == 200, p);
  auto limited = t.edge.get("/api/companies/acme/webhooks", t.token);
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "2");
  CHECK(limited.body == R"({"data":null,"error":"rate limit exceeded; retry after 2 s"})");
  CHECK(t.edge.post("/api/mail/suppressions", R"({"address":"a@example.net"})", t.token).status == 429);
  // Per token: another token of the company is not limited.
  const std::string other = t.edge.token_with("acme", kAllMail);
  CHECK(t.edge.get("/api/mail/webhooks", other).status == 200);
  // The bucket refills with time.
  t.edge.clock.advance_ms(2000);
  CHECK(t.edge.get("/api/mail/webhooks", t.token).status == 200);
  CHECK(t.edge.get("/api/mail/webhooks", t.token).status == 429);
}

TEST_SUITE_END();
