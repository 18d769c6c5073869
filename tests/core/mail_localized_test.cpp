// LocalizedString (spec document 2): a plain string for every locale, or an object keyed by locale with the
// fallback locale -> `en` -> the first key; MailTemplate compiles every locale of subject and body.
#include "core/mail/localized_string.h"
#include "core/mail/mail_template.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/json.h"

using namespace core::mail;
namespace json = boost::json;

namespace {

LocalizedString localized(std::string_view json_text) {
  auto v = core::parse_json(json_text);
  REQUIRE(v.ok());
  auto s = LocalizedString::from_json(*v);
  REQUIRE_MESSAGE(s.ok(), s.error().message);
  return std::move(s).value();
}

core::Error refused(std::string_view json_text) {
  auto v = core::parse_json(json_text);
  REQUIRE(v.ok());
  auto s = LocalizedString::from_json(*v);
  REQUIRE_FALSE(s.ok());
  return s.error();
}

json::object vars(std::string_view text) {
  auto o = core::parse_json_object(text);
  REQUIRE(o.ok());
  return std::move(o).value();
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("localized: a plain string applies to every locale") {
  auto s = localized(R"("Your receipt")");
  CHECK(s.is_plain());
  CHECK(s.pick("tr") == "Your receipt");
  CHECK(s.pick("") == "Your receipt");
  CHECK(json::serialize(s.to_json()) == R"("Your receipt")");
  CHECK(LocalizedString("x").pick("en") == "x");
}

TEST_CASE("localized: the recipient's locale, then en, then the first key") {
  auto s = localized(R"({"tr":"Fişiniz","en":"Your receipt","de":"Ihre Quittung"})");
  CHECK_FALSE(s.is_plain());
  CHECK(s.pick("tr") == "Fişiniz");
  CHECK(s.pick("de") == "Ihre Quittung");
  CHECK(s.pick("fr") == "Your receipt");
  CHECK(s.pick("") == "Your receipt");
  // Locales match exactly: no case folding, no language-prefix matching.
  CHECK(s.pick("TR") == "Your receipt");
  CHECK(s.pick("tr-TR") == "Your receipt");
  auto no_en = localized(R"({"de":"Ihre Quittung","tr":"Fişiniz"})");
  CHECK(no_en.pick("fr") == "Ihre Quittung");
  CHECK(no_en.pick_index("tr") == 1);
  CHECK(json::serialize(no_en.to_json()) == R"({"de":"Ihre Quittung","tr":"Fişiniz"})");
}

TEST_CASE("localized: anything else is invalid_localized_string") {
  CHECK(refused("1").code == "invalid_localized_string");
  CHECK(refused("null").message == "must be a string or an object of locale to string");
  CHECK(refused("[]").code == "invalid_localized_string");
  CHECK(refused("{}").message == "must hold at least one locale");
  CHECK(refused(R"({"":"x"})").message == "a locale key is empty");
  CHECK(refused(R"({"en":"x","tr":1})").message == "locale 'tr' must be a string");
}

TEST_CASE("mail template: every locale of subject and body compiles; variables over all of them") {
  auto t =
      MailTemplate::compile(localized(R"({"tr":"Sipariş {order_id}"})"),
                            localized(R"({"en":"Order {order_id}","tr":"Sipariş {order_id} {{tr_only}}"})"),
                            localized(R"("<p>Hi {name}</p>{#items}{sku}{/items}")"));
  REQUIRE_MESSAGE(t.ok(), t.error().message);
  CHECK(t->variables() == V{"order_id", "tr_only", "name", "items"});
  // The name is a label, never rendered: its braces need no variable.
  CHECK(t->name().pick("en") == "Sipariş {order_id}");
}

TEST_CASE("mail template: rendering picks the locale; the subject is not escaped, the body is") {
  auto t = MailTemplate::compile(LocalizedString("n"),
                                 localized(R"({"en":"Order for {name}","tr":"{name} siparişi"})"),
                                 localized(R"({"en":"<p>Hi {name}</p>","tr":"<p>Merhaba {name}</p>"})"));
  REQUIRE(t.ok());
  auto en = t->render("fr", vars(R"({"name":"Ali & Veli"})"));
  REQUIRE(en.ok());
  CHECK(en->subject == "Order for Ali & Veli");
  CHECK(en->html == "<p>Hi Ali &amp; Veli</p>");
  auto tr = t->render("tr", vars(R"({"name":"Ali & Veli"})"));
  REQUIRE(tr.ok());
  CHECK(tr->subject == "Ali & Veli siparişi");
  CHECK(tr->html == "<p>Merhaba Ali &amp; Veli</p>");
}

TEST_CASE("mail template: missing variables of the picked locale, subject first") {
  auto t = MailTemplate::compile(LocalizedString("n"), localized(R"({"en":"{a} {b}","tr":"{c}"})"),
                                 localized(R"({"en":"{b} {d}","tr":"{e}"})"));
  REQUIRE(t.ok());
  CHECK(t->missing_variables("en", vars("{}")) == V{"a", "b", "d"});
  CHECK(t->missing_variables("tr", vars(R"({"c":1})")) == V{"e"});
  auto refused_send = t->render("en", vars(R"({"b":1})"));
  REQUIRE_FALSE(refused_send.ok());
  CHECK(refused_send.error().code == "missing_variables");
  CHECK(refused_send.error().message == "missing variables: a, d");
}

TEST_CASE("mail template: a compile error names the field and locale") {
  TemplateErrorSite site;
  auto t = MailTemplate::compile(LocalizedString("n"), LocalizedString("ok {a}"),
                                 localized(R"({"en":"fine","tr":"<p>{#items}</p>"})"), &site);
  REQUIRE_FALSE(t.ok());
  CHECK(t.error().code == "template_unclosed_section");
  CHECK(t.error().message == "body[tr]: section 'items' is never closed; opened at byte 3");
  CHECK(site.field == "body");
  CHECK(site.locale == "tr");
  CHECK(site.offset == 3);
  auto s =
      MailTemplate::compile(LocalizedString("n"), LocalizedString("{/x}"), LocalizedString("{#y}"), &site);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "subject: '{/x}' closes no open section at byte 0");
  CHECK(site.field == "subject");
  CHECK(site.locale == "");
  CHECK(site.offset == 0);
}
