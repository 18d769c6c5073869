// Mail: suppressions (spec document 2; docs/mail-api.md, "Suppressions") over HTTP: manual add (201, and
// 200 with the first entry for an address already listed), get and delete by address or by id, the list with
// its reason filter and paging, the "why was this not sent?" answer of an entry a real bounce made (an SMTP
// capture server refusing the recipient), sends resuming after a delete, permissions, other companies and
// the three path forms.

#include <doctest/doctest.h>

#include <thread>

#include "../native/smtp_sink.h"
#include "edge/mail/suppressions.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

const std::string kBase = "/api/companies/acme/suppressions";

struct SuppressionEdge {
  TestEdge edge;
  std::string token = edge.token_with("acme", kAllMail);

  explicit SuppressionEdge(edge::Config c = unthrottled()) : edge(std::move(c)) {}

  testing::Reply add(const std::string& body, const std::string& tok = "") {
    return edge.post(kBase, body, tok.empty() ? token : tok);
  }
};

}  // namespace

TEST_CASE("suppressions: a manual add answers 201, and the same address again 200 with the first entry") {
  SuppressionEdge t;
  auto made = t.add(R"({"address":"Someone@Example.NET"})");
  REQUIRE(made.status == 201);
  CHECK(made.error().empty());
  const auto& entry = made.data();
  const std::string id = str(entry, "id");
  CHECK(id.rfind("sup_", 0) == 0);
  CHECK(str(entry, "address") == "someone@example.net");
  CHECK(str(entry, "reason") == "manual");
  CHECK(entry.at("source").is_null());
  CHECK(str(entry, "createdAt") == "2026-11-18T11:06:40.000Z");
  CHECK(made.body == core::to_json(json::object{{"data", entry}, {"error", nullptr}}));

  // Listed already (in any case, also as `Name <address>`): 200 with the entry as it was, nothing new.
  t.edge.clock.advance_ms(5000);
  auto again = t.add(R"({"address":"Some One <someone@example.net>","reason":"manual"})");
  CHECK(again.status == 200);
  CHECK(again.data() == entry);
  auto list = t.edge.get(kBase, t.token);
  CHECK(list.header("X-Total-Count") == "1");

  // Refusals: 400 with the field named, nothing listed.
  auto bad = t.add(R"({"address":"not an address"})");
  CHECK(bad.status == 400);
  CHECK(bad.body == R"({"data":null,"error":"field 'address' must be an email address"})");
  auto missing = t.add(R"({"reason":"manual"})");
  CHECK(missing.status == 400);
  CHECK(missing.error() == "field 'address' is required");
  auto reason = t.add(R"({"address":"a@example.net","reason":"bounce"})");
  CHECK(reason.status == 400);
  CHECK(reason.error() == "field 'reason' must be \"manual\"");
  CHECK(t.add(R"({"address":42})").status == 400);
  CHECK(t.add("{").status == 400);
  CHECK(t.edge.get(kBase, t.token).header("X-Total-Count") == "1");
}

TEST_CASE("suppressions: get and delete by address or by id; 404 when not listed") {
  SuppressionEdge t;
  const std::string a = str(t.add(R"({"address":"a@example.net"})").data(), "id");
  const std::string b = str(t.add(R"({"address":"b@example.net"})").data(), "id");

  auto by_address = t.edge.get(kBase + "/A@Example.net", t.token);
  REQUIRE(by_address.status == 200);
  CHECK(str(by_address.data(), "id") == a);
  auto by_id = t.edge.get(kBase + "/" + b, t.token);
  REQUIRE(by_id.status == 200);
  CHECK(str(by_id.data(), "address") == "b@example.net");

  auto unknown = t.edge.get(kBase + "/nobody@example.net", t.token);
  CHECK(unknown.status == 404);
  CHECK(unknown.body == R"({"data":null,"error":"not on the suppression list"})");
  CHECK(t.edge.get(kBase + "/sup_AAAAAAAAAAAAAAAA", t.token).status == 404);

  auto removed = t.edge.del(kBase + "/" + a, t.token);
  REQUIRE(removed.status == 200);
  CHECK(str(removed.data(), "address") == "a@example.net");
  CHECK(removed.data().at("deleted") == json::value(true));
  CHECK(t.edge.get(kBase + "/a@example.net", t.token).status == 404);
  CHECK(t.edge.del(kBase + "/" + a, t.token).status == 404);

  auto by_name = t.edge.del(kBase + "/B@EXAMPLE.NET", t.token);
  REQUIRE(by_name.status == 200);
  CHECK(str(by_name.data(), "id") == b);
  // The id index went with the entry.
  CHECK(t.edge.get(kBase + "/" + b, t.token).status == 404);
  auto gone = t.edge.del(kBase + "/b@example.net", t.token);
  CHECK(gone.status == 404);
  CHECK(gone.body == R"({"data":null,"error":"not on the suppression list"})");
  CHECK(t.edge.get(kBase, t.token).header("X-Total-Count") == "0");
}

TEST_CASE("suppressions: the list pages by address and filters by reason") {
  SuppressionEdge t;
  auto& app = t.edge.server->app();
  const std::string cid = app.accounts->company_by_slug("acme")->id;
  for (const char* address : {"d@example.net", "a@example.net", "c@example.net"})
    REQUIRE(t.add(std::string(R"({"address":")") + address + R"("})").status == 201);
  // A bounce and a complaint, as the delivery worker and a feedback loop list them.
  REQUIRE(app.kv
              ->write([&](store::WriteTxn& txn) -> core::Status {
                edge::mail::add_suppression(
                    app, txn, cid, "b@example.net", "bounce",
                    json::object{{"event", "bounced"}, {"mailLogId", "log_x"}, {"detail", "550"}},
                    t.edge.clock.now_ms());
                edge::mail::add_suppression(app, txn, cid, "e@example.net", "complaint", nullptr,
                                            t.edge.clock.now_ms());
                return {};
              })
              .ok());

  auto all = t.edge.get(kBase, t.token);
  REQUIRE(all.status == 200);
  CHECK(all.header("X-Total-Count") == "5");
  std::vector<std::string> order;
  for (const auto& e : all.data().as_array()) order.push_back(str(e, "address"));
  CHECK(order == std::vector<std::string>{"a@example.net", "b@example.net", "c@example.net", "d@example.net",
                                          "e@example.net"});
  auto page = t.edge.get(kBase + "?limit=2&skip=1", t.token);
  REQUIRE(page.data().as_array().size() == 2);
  CHECK(str(page.data().as_array()[0], "address") == "b@example.net");
  CHECK(str(page.data().as_array()[1], "address") == "c@example.net");
  CHECK(page.header("X-Total-Count") == "5");

  auto manual = t.edge.get(kBase + "?reason=manual&skip=1", t.token);
  CHECK(manual.header("X-Total-Count") == "3");
  REQUIRE(manual.data().as_array().size() == 2);
  CHECK(str(manual.data().as_array()[0], "address") == "c@example.net");
  auto bounced = t.edge.get(kBase + "?reason=bounce", t.token);
  CHECK(bounced.header("X-Total-Count") == "1");
  CHECK(str(bounced.data().as_array()[0].at("source"), "mailLogId") == "log_x");
  CHECK(t.edge.get(kBase + "?reason=complaint", t.token).header("X-Total-Count") == "1");

  auto wrong = t.edge.get(kBase + "?reason=hard", t.token);
  CHECK(wrong.status == 400);
  CHECK(wrong.body ==
        R"({"data":null,"error":"query parameter 'reason' must be one of bounce, complaint, manual"})");
  CHECK(t.edge.get(kBase + "?limit=0", t.token).status == 400);
  CHECK(t.edge.get(kBase + "?limit=201", t.token).status == 400);
}

TEST_CASE("suppressions: a bounce lists the address, GET says why, a delete lets sends through again") {
  std::string failure;
  auto sink = test_smtp::SmtpSink::start({.permfail_rcpt = {"gone@example.net"}}, failure);
  REQUIRE_MESSAGE(sink, failure);
  edge::Config c = unthrottled();
  c.mail.delivery_workers = 1;
  c.mail.relay = "127.0.0.1:" + std::to_string(sink->port());
  c.mail.smtp_timeout_ms = 10'000;
  SuppressionEdge t(c);
  const std::string domain = verified_domain(t.edge, t.token, "acme", "acme.example.test");
  auto send = [&] {
    auto r = t.edge.post(
        "/api/companies/acme/send",
        R"({"domainId":")" + domain +
            R"(","from":"hello@acme.example.test","to":"gone@example.net","subject":"Hi","text":"Hi"})",
        t.token);
    REQUIRE(r.status == 201);
    return str(r.data(), "mailLogId");
  };
  const std::string log_id = send();

  testing::Reply why;
  for (int i = 0; i < 200 && why.status != 200; ++i) {
    why = t.edge.get("/api/mail/suppressions/gone@example.net", t.token);
    if (why.status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE_MESSAGE(why.status == 200, why.body);
  CHECK(str(why.data(), "address") == "gone@example.net");
  CHECK(str(why.data(), "reason") == "bounce");
  const auto& source = why.data().at("source");
  CHECK(str(source, "event") == "bounced");
  CHECK(str(source, "mailLogId") == log_id);
  CHECK(str(source, "detail").rfind("550 5.1.1 no such user", 0) == 0);
  CHECK_FALSE(str(why.data(), "createdAt").empty());

  // Listed: the next send skips the address silently; the log says so.
  const std::string skipped = send();
  auto log = t.edge.get("/api/companies/acme/logs/" + skipped, t.token);
  CHECK(str(log.data(), "status") == "suppressed");

  // Removed: sends resume (queued for delivery, and bounced again by this server).
  REQUIRE(t.edge.del("/api/mail/companies/acme/suppressions/gone@example.net", t.token).status == 200);
  const std::string resumed = send();
  auto queued = t.edge.get("/api/companies/acme/logs/" + resumed, t.token);
  CHECK(str(queued.data(), "status") != "suppressed");
}

TEST_CASE("suppressions: permissions, other companies, credentials and the three path forms") {
  SuppressionEdge t;
  const std::string id = str(t.add(R"({"address":"a@example.net"})").data(), "id");
  const std::string other = t.edge.token_with("acme", {"logs.view", "webhooks.manage", "send.execute"});
  const std::string denied = R"({"data":null,"error":"access token lacks permission 'suppressions.manage'"})";
  for (auto r : {t.edge.get(kBase, other), t.edge.get(kBase + "/" + id, other),
                 t.add(R"({"address":"b@example.net"})", other), t.edge.del(kBase + "/" + id, other)}) {
    CHECK(r.status == 403);
    CHECK(r.body == denied);
  }
  // Another company: its slug is 404, and its token neither sees nor removes acme's entry.
  const std::string globex = t.edge.token_with("globex", kAllMail);
  CHECK(t.edge.get("/api/companies/globex/suppressions", t.token).status == 404);
  CHECK(t.edge.get("/api/companies/globex/suppressions/" + id, globex).status == 404);
  CHECK(t.edge.get("/api/mail/suppressions/a@example.net", globex).status == 404);
  CHECK(t.edge.del("/api/mail/suppressions/" + id, globex).status == 404);
  CHECK(t.edge.get("/api/mail/suppressions", globex).header("X-Total-Count") == "0");
  CHECK(t.edge.get(kBase + "/" + id, t.token).status == 200);
  // No credential.
  auto anonymous = t.edge.get(kBase);
  CHECK(anonymous.status == 401);
  CHECK(anonymous.header("WWW-Authenticate") == "Bearer");
  // The mail-product forms see the same list.
  CHECK(t.edge.get("/api/mail/suppressions", t.token).data() == t.edge.get(kBase, t.token).data());
  CHECK(t.edge.get("/api/mail/companies/acme/suppressions/" + id, t.token).status == 200);
  CHECK(t.edge.post("/api/mail/suppressions", R"({"address":"c@example.net"})", t.token).status == 201);
  CHECK(t.edge.get("/api/mail/companies/acme/suppressions", t.token).header("X-Total-Count") == "2");
}

TEST_SUITE_END();
