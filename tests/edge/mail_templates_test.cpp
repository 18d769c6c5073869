// Mail: templates (spec document 2; DECISIONS.md "Templates") over HTTP: a verified domain required,
// variables extracted and read-only, LocalizedString fields, the mail-product form's `mjmlBody`, partial
// updates, syntax errors refused, permissions and another company's ids.

#include <doctest/doctest.h>

#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

edge::Config quiet() {
  edge::Config c;
  c.mail.delivery_workers = 0;
  return c;
}

}  // namespace

TEST_CASE("templates: create, read, update, list and delete") {
  TestEdge edge{quiet()};
  auto token = edge.token_with("acme", kAllMail);
  const std::string domain = verified_domain(edge, token, "acme", "acme.example.test");
  const std::string base = "/api/companies/acme/templates";

  auto r = edge.post(
      base,
      R"({"name":{"en":"Receipt","tr":"Fiş"},"subject":{"en":"Your order {{order}}","tr":"Siparişiniz {order}"},
                         "body":"<p>Hi {name}</p>{#items}<li>{title} x{qty}</li>{/items}{^paid}<b>unpaid</b>{/^paid}",
                         "domainId":")" +
          domain + R"(","variables":["ignored"]})",
      token);
  REQUIRE(r.status == 201);
  const std::string id = str(r.data(), "id");
  CHECK(id.rfind("tpl_", 0) == 0);
  CHECK(r.data().at("name") == json::value(json::object{{"en", "Receipt"}, {"tr", "Fiş"}}));
  CHECK(r.data().at("variables") == json::value(json::array{"order", "name", "items", "paid"}));
  CHECK(str(r.data(), "domainId") == domain);
  CHECK(r.data().as_object().contains("body"));

  // The mail-product form names the body mjmlBody, on both of its paths.
  auto p = edge.get("/api/mail/companies/acme/templates/" + id, token);
  CHECK(p.status == 200);
  CHECK(p.data().as_object().contains("mjmlBody"));
  CHECK_FALSE(p.data().as_object().contains("body"));
  CHECK(edge.get("/api/mail/templates/" + id, token).status == 200);

  // Partial update: only the subject; variables follow the new text.
  auto u = edge.patch(base + "/" + id, R"({"subject":"Order {order} for {customer}"})", token);
  REQUIRE(u.status == 200);
  CHECK(str(u.data(), "subject") == "Order {order} for {customer}");
  CHECK(u.data().at("variables") == json::value(json::array{"order", "customer", "name", "items", "paid"}));
  CHECK(u.data().at("name") == r.data().at("name"));
  auto m = edge.patch("/api/mail/templates/" + id, R"({"mjmlBody":"<mj-text>{x}</mj-text>"})", token);
  REQUIRE(m.status == 200);
  CHECK(str(m.data(), "mjmlBody") == "<mj-text>{x}</mj-text>");
  CHECK(edge.patch(base + "/" + id, R"({})", token).status == 400);
  CHECK(edge.patch(base + "/" + id, R"({"unknown":1})", token).status == 400);

  auto list = edge.get(base, token);
  CHECK(list.status == 200);
  CHECK(list.data().as_array().size() == 1);
  CHECK(edge.del(base + "/" + id, token).status == 200);
  CHECK(edge.get(base + "/" + id, token).status == 404);
  CHECK(edge.del(base + "/" + id, token).status == 404);
}

TEST_CASE("templates refuse bad input and unverified or foreign domains") {
  TestEdge edge{quiet()};
  auto token = edge.token_with("acme", kAllMail);
  const std::string domain = verified_domain(edge, token, "acme", "acme.example.test");
  auto pending = edge.post("/api/companies/acme/domains", R"({"name":"pending.example.test"})", token);
  const std::string base = "/api/companies/acme/templates";
  auto body = [&](const std::string& domain_id, const std::string& text = "Hi {name}") {
    return R"({"name":"n","subject":"s","body":")" + text + R"(","domainId":")" + domain_id + R"("})";
  };

  auto unverified = edge.post(base, body(str(pending.data(), "id")), token);
  CHECK(unverified.status == 422);
  CHECK(unverified.error() == "domain 'pending.example.test' is not verified");
  CHECK(edge.post(base, body("dom_nope"), token).status == 422);
  auto globex = edge.token_with("globex", kAllMail);
  const std::string theirs = verified_domain(edge, globex, "globex", "globex.example.test");
  CHECK(edge.post(base, body(theirs), token).status == 422);

  auto syntax = edge.post(base, body(domain, "{#items}never closed"), token);
  CHECK(syntax.status == 400);
  CHECK(syntax.error().find("body") != std::string::npos);
  CHECK(edge.post(base, R"({"subject":"s","body":"b","domainId":")" + domain + R"("})", token).status == 400);
  CHECK(edge.post(base, R"({"name":"n","subject":5,"body":"b","domainId":")" + domain + R"("})", token)
            .status == 400);
  CHECK(edge.post(base, R"({"name":"n","subject":{},"body":"b","domainId":")" + domain + R"("})", token)
            .status == 400);
  // CSS and JSON braces are literal text, not tags.
  auto css = edge.post(base, body(domain, "<style>p { color: red }</style>{ \\\"a\\\": 1 }"), token);
  CHECK(css.status == 201);
  CHECK(css.data().at("variables").as_array().empty());

  // Permissions and other companies.
  auto no_perm = edge.token_with("acme", {"send.execute"});
  CHECK(edge.get(base, no_perm).status == 403);
  CHECK(edge.get(base, no_perm).error() == "access token lacks permission 'templates.manage'");
  const std::string id = str(css.data(), "id");
  CHECK(edge.get("/api/companies/globex/templates/" + id, globex).status == 404);
  CHECK(edge.get("/api/mail/templates/" + id, globex).status == 404);
  CHECK(edge.patch("/api/mail/templates/" + id, R"({"name":"x"})", globex).status == 404);
  CHECK(edge.del("/api/mail/templates/" + id, globex).status == 404);
  CHECK(edge.get(base + "/" + id, globex).status == 404);
}

TEST_SUITE_END();
