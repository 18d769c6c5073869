// Mail: domains (spec document 2; docs/mail-domains.md) over HTTP, verified against a real dnsmasq: the
// records in both path forms, DKIM keys made per selector and sealed at rest, verification per record, the
// pending -> failed rule after 60 minutes, background re-checks, DNS failure (502), permissions including
// `domains.domain:<id>[:<action>]`, and another company's ids (404).

#include <doctest/doctest.h>

#include <thread>

#include "../native/dnsmasq_zone.h"
#include "core/mail/domain_records.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

struct DnsEdge {
  int dns_port = test_dns::free_port();
  std::unique_ptr<test_dns::DnsmasqZone> zone;
  TestEdge edge{config()};
  std::string token = edge.token_with("acme", kAllMail);

  edge::Config config() const {
    edge::Config c;
    c.mail.nameserver = "127.0.0.1:" + std::to_string(dns_port);
    c.mail.delivery_workers = 0;
    return c;
  }

  // (Re)starts the zone with `records` (dnsmasq options) on the port the edge asks.
  void publish(const std::vector<std::string>& records) {
    zone.reset();
    std::string failure;
    zone = test_dns::DnsmasqZone::start(records, failure, dns_port);
    REQUIRE_MESSAGE(zone, failure);
  }

  // dnsmasq options for what the API asked `domain` to publish.
  static std::vector<std::string> options_for(const json::value& domain) {
    std::vector<std::string> out;
    for (const auto& r : domain.at("dnsRecords").as_array()) {
      const std::string type = str(r, "type"), name = str(r, "name"), value = str(r, "value");
      if (type == "TXT") out.push_back("--txt-record=" + name + "," + value);
      if (type == "CNAME") out.push_back("--cname=" + name + "," + value);
    }
    return out;
  }
};

}  // namespace

TEST_CASE("creating a domain answers the records to publish, in both path forms") {
  DnsEdge t;
  auto r = t.edge.post("/api/companies/acme/domains", R"({"name":"Mail.Acme.Example.TEST."})", t.token);
  REQUIRE(r.status == 201);
  CHECK(r.error().empty());
  const auto& d = r.data();
  CHECK(str(d, "name") == "mail.acme.example.test");
  CHECK(str(d, "status") == "pending");
  CHECK(str(d, "id").rfind("dom_", 0) == 0);
  CHECK(d.at("checks").is_null());
  const auto& records = d.at("dnsRecords").as_array();
  REQUIRE(records.size() == 4);
  CHECK(str(records[0], "type") == "TXT");
  CHECK(str(records[0], "name") == "mail.acme.example.test");
  CHECK(str(records[0], "value") == "v=spf1 include:spf.mail.platform.test ~all");
  CHECK(str(records[1], "type") == "CNAME");
  CHECK(str(records[1], "name") == "s1._domainkey.mail.acme.example.test");
  CHECK(str(records[1], "value").rfind("s1.", 0) == 0);
  CHECK(str(records[1], "value").ends_with(".dkim.mail.platform.test"));
  CHECK(str(records[2], "name") == "s2._domainkey.mail.acme.example.test");
  CHECK(str(records[3], "name") == "_dmarc.mail.acme.example.test");

  // The mail-product form: `domain`, and the checklist as `dns` with `host`, DKIM TXT and MX included.
  auto p = t.edge.post("/api/mail/domains", R"({"domain":"other.example.test"})", t.token);
  REQUIRE(p.status == 201);
  CHECK(str(p.data(), "domain") == "other.example.test");
  const auto& dns = p.data().at("dns").as_array();
  REQUIRE(dns.size() == 6);
  bool dkim_txt = false, mx = false;
  for (const auto& e : dns) {
    CHECK(e.as_object().contains("host"));
    if (str(e, "type") == "TXT" && str(e, "host") == "s1._domainkey.other.example.test") {
      dkim_txt = true;
      CHECK(str(e, "value").rfind("v=DKIM1; k=rsa; p=MII", 0) == 0);
    }
    if (str(e, "type") == "MX") mx = str(e, "value") == "10 mx.mail.platform.test";
  }
  CHECK(dkim_txt);
  CHECK(mx);
  // The same domain through the other form and the slug-naming form.
  auto same = t.edge.get("/api/mail/companies/acme/domains/" + str(d, "id"), t.token);
  CHECK(same.status == 200);
  CHECK(str(same.data(), "domain") == "mail.acme.example.test");

  CHECK(t.edge.post("/api/companies/acme/domains", R"({"name":"mail.acme.example.test"})", t.token).status ==
        409);
  auto bad = t.edge.post("/api/companies/acme/domains", R"({"name":"not a domain"})", t.token);
  CHECK(bad.status == 400);
  CHECK(bad.error().find("domain") != std::string::npos);
  CHECK(t.edge.post("/api/companies/acme/domains", R"({"name":5})", t.token).status == 400);
  CHECK(t.edge.post("/api/companies/acme/domains", R"({})", t.token).status == 400);
  CHECK(t.edge.post("/api/companies/acme/domains", "{", t.token).status == 400);

  auto list = t.edge.get("/api/companies/acme/domains", t.token);
  CHECK(list.status == 200);
  CHECK(list.data().as_array().size() == 2);
  CHECK(list.header("X-Total-Count") == "2");
}

TEST_CASE("DKIM private keys are sealed at rest, one key pair per selector") {
  DnsEdge t;
  auto r = t.edge.post("/api/companies/acme/domains", R"({"name":"keys.example.test"})", t.token);
  REQUIRE(r.status == 201);
  auto& app = t.edge.server->app();
  auto company = app.accounts->company_by_slug("acme");
  auto d = edge::mail::find_domain(app, company->id, str(r.data(), "id"));
  REQUIRE(d.ok());
  REQUIRE(d->keys.size() == 2);
  CHECK(d->keys[0].selector == "s1");
  CHECK(d->keys[1].selector == "s2");
  CHECK(d->keys[0].public_key != d->keys[1].public_key);
  std::string raw;
  REQUIRE(
      app.kv
          ->read([&](const store::ReadTxn& txn) -> core::Status {
            raw = txn.get(app.mail_table, edge::mail::company_key(company->id, "domain", d->id)).value_or("");
            return {};
          })
          .ok());
  CHECK(raw.find("PRIVATE KEY") == std::string::npos);  // no PEM in the store
  auto pem = edge::mail::dkim_private_key(app, *d);
  REQUIRE(pem.ok());
  CHECK(pem->find("-----BEGIN PRIVATE KEY-----") != std::string::npos);
  // The response shows public material only.
  CHECK(r.body.find("PRIVATE") == std::string::npos);
  CHECK(r.body.find("privateKey") == std::string::npos);
}

TEST_CASE("verification checks SPF, DKIM and DMARC in real DNS and follows the state rule") {
  DnsEdge t;
  auto made = t.edge.post("/api/companies/acme/domains", R"({"name":"acme.example.test"})", t.token);
  REQUIRE(made.status == 201);
  const std::string id = str(made.data(), "id");
  const std::string path = "/api/companies/acme/domains/" + id;

  t.publish({});  // nothing published yet
  auto v = t.edge.post(path + "/verify", "", t.token);
  REQUIRE(v.status == 200);
  CHECK(str(v.data(), "status") == "pending");
  CHECK(v.data().at("checks") ==
        json::value(json::object{{"spf", false}, {"dkim", false}, {"dmarc", false}}));
  CHECK_FALSE(v.data().at("checkedAt").is_null());

  // SPF and DMARC only: still pending.
  auto records = DnsEdge::options_for(made.data());
  t.publish({records[0], records[3]});
  v = t.edge.post(path + "/verify", "", t.token);
  CHECK(str(v.data(), "status") == "pending");
  CHECK(v.data().at("checks") == json::value(json::object{{"spf", true}, {"dkim", false}, {"dmarc", true}}));

  // Everything as asked, the CNAMEs included: verified.
  t.publish(records);
  v = t.edge.post(path + "/verify", "", t.token);
  CHECK(str(v.data(), "status") == "verified");
  CHECK(v.data().at("checks") == json::value(json::object{{"spf", true}, {"dkim", true}, {"dmarc", true}}));
  CHECK_FALSE(v.data().at("verifiedAt").is_null());
  CHECK(str(t.edge.get(path, t.token).data(), "status") == "verified");

  // Records removed after 60 minutes: the next check finds them gone, and it is past propagation: failed.
  t.edge.clock.advance_ms(61 * 60 * 1000);
  t.publish({records[0]});
  v = t.edge.post(path + "/verify", "", t.token);
  CHECK(str(v.data(), "status") == "failed");
  CHECK(v.data().at("verifiedAt").is_null());
  // Published again: a verify call passes, whatever the age.
  t.publish(records);
  CHECK(str(t.edge.post(path + "/verify", "", t.token).data(), "status") == "verified");
}

TEST_CASE("pending domains are re-checked in the background until they pass") {
  DnsEdge t;
  auto made = t.edge.post("/api/companies/acme/domains", R"({"name":"later.example.test"})", t.token);
  REQUIRE(made.status == 201);
  auto other = t.edge.post("/api/companies/acme/domains", R"({"name":"never.example.test"})", t.token);
  REQUIRE(other.status == 201);
  t.publish(DnsEdge::options_for(made.data()));
  auto checked = edge::mail::recheck_pending_domains(t.edge.server->app());
  REQUIRE(checked.ok());
  CHECK(*checked == 2);
  CHECK(str(t.edge.get("/api/companies/acme/domains/" + str(made.data(), "id"), t.token).data(), "status") ==
        "verified");
  CHECK(str(t.edge.get("/api/companies/acme/domains/" + str(other.data(), "id"), t.token).data(), "status") ==
        "pending");
  // Only the one still pending is checked next time.
  CHECK(*edge::mail::recheck_pending_domains(t.edge.server->app()) == 1);
}

TEST_CASE("a resolver that cannot answer is a 502, and nothing is recorded") {
  DnsEdge t;  // no dnsmasq on the port
  auto made = t.edge.post("/api/companies/acme/domains", R"({"name":"dark.example.test"})", t.token);
  REQUIRE(made.status == 201);
  const std::string path = "/api/companies/acme/domains/" + str(made.data(), "id");
  auto v = t.edge.post(path + "/verify", "", t.token);
  CHECK(v.status == 502);
  CHECK(v.error().find("DNS") != std::string::npos);
  CHECK(t.edge.get(path, t.token).data().at("checkedAt").is_null());
}

TEST_CASE("domain permissions: plain, manage, and scoped to one domain and action") {
  DnsEdge t;
  auto a = t.edge.post("/api/companies/acme/domains", R"({"name":"a.example.test"})", t.token);
  auto b = t.edge.post("/api/companies/acme/domains", R"({"name":"b.example.test"})", t.token);
  const std::string ida = str(a.data(), "id"), idb = str(b.data(), "id");
  const std::string base = "/api/companies/acme/domains/";
  t.publish({});

  auto view_only = t.edge.token_with("acme", {"domains.view"});
  CHECK(t.edge.get("/api/companies/acme/domains", view_only).status == 200);
  CHECK(t.edge.get(base + ida, view_only).status == 200);
  auto refused = t.edge.post(base + ida + "/verify", "", view_only);
  CHECK(refused.status == 403);
  CHECK(refused.error() == "access token lacks permission 'domains.edit'");
  CHECK(t.edge.del(base + ida, view_only).status == 403);
  CHECK(t.edge.post("/api/companies/acme/domains", R"({"name":"c.example.test"})", view_only).status == 403);

  auto creator = t.edge.token_with("acme", {"domains.create"});
  CHECK(t.edge.post("/api/companies/acme/domains", R"({"name":"c.example.test"})", creator).status == 201);
  CHECK(t.edge.get(base + ida, creator).status == 403);

  // Legacy scoped form: every action on that one domain.
  auto one = t.edge.token_with("acme", {"domains.domain:" + ida});
  CHECK(t.edge.get(base + ida, one).status == 200);
  CHECK(t.edge.post(base + ida + "/verify", "", one).status == 200);
  CHECK(t.edge.get(base + idb, one).status == 403);
  // One action on one domain.
  auto view_a = t.edge.token_with("acme", {"domains.domain:" + ida + ":view"});
  CHECK(t.edge.get(base + ida, view_a).status == 200);
  CHECK(t.edge.post(base + ida + "/verify", "", view_a).status == 403);
  CHECK(t.edge.del(base + ida, view_a).status == 403);
  auto delete_a = t.edge.token_with("acme", {"domains.domain:" + ida + ":delete"});
  CHECK(t.edge.del(base + idb, delete_a).status == 403);
  CHECK(t.edge.del(base + ida, delete_a).status == 200);
  CHECK(t.edge.get(base + ida, t.token).status == 404);

  // No token, a malformed one, another company's token and ids.
  CHECK(t.edge.get("/api/companies/acme/domains").status == 401);
  CHECK(t.edge.get("/api/mail/domains", "stk_nothex").status == 401);
  CHECK(t.edge.get(base + idb, t.edge.globex_token).status == 404);  // acme's slug, globex's token
  CHECK(t.edge.get("/api/companies/globex/domains/" + idb, t.edge.globex_token).status == 404);
  CHECK(t.edge.get("/api/mail/domains/" + idb, t.edge.globex_token).status == 404);
  CHECK(t.edge.del("/api/mail/domains/" + idb, t.edge.globex_token).status == 404);
  CHECK(t.edge.get(base + idb, t.token).status == 200);
}

TEST_SUITE_END();

TEST_CASE("sends do not set off background re-checks: those run on their own interval") {
  DnsEdge t;
  auto pending = t.edge.post("/api/companies/acme/domains", R"({"name":"waiting.example.test"})", t.token);
  REQUIRE(pending.status == 201);
  t.publish(DnsEdge::options_for(pending.data()));  // a check now would pass
  const std::string sender = verified_domain(t.edge, t.token, "acme", "sender.example.test");
  for (int i = 0; i < 5; ++i)
    REQUIRE(
        t.edge
            .post("/api/companies/acme/send",
                  R"({"domainId":")" + sender +
                      R"(","from":"a@sender.example.test","to":"b@example.net","subject":"s","text":"t"})",
                  t.token)
            .status == 201);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(str(t.edge.get("/api/companies/acme/domains/" + str(pending.data(), "id"), t.token).data(),
            "status") == "pending");
}
