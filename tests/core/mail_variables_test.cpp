// The Template resource's `variables` and the missing-variable set of a send call (spec document 2: 422
// listing the missing names). Rules: docs/mail-templates.md, "Variables".
#include "core/mail/template_variables.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/json.h"

using namespace core::mail;

namespace {

using V = std::vector<std::string>;

Template compiled(std::string_view text) {
  auto t = Template::compile(text);
  REQUIRE_MESSAGE(t.ok(), t.error().message);
  return std::move(t).value();
}

V missing(std::string_view tpl, std::string_view variables) {
  auto o = core::parse_json_object(variables);
  REQUIRE(o.ok());
  return missing_variables(compiled(tpl), *o);
}

const char* const kReceipt =
    "Hi {name}, order {order_id}{#items}<tr>{name} {qty} {shop}</tr>{/items}{^coupon}Use "
    "{next_coupon}{/^coupon}"
    " {total} {name}";

}  // namespace

TEST_CASE("variables: top-level names in order of first appearance, each once") {
  CHECK(template_variables(compiled(kReceipt)) ==
        V{"name", "order_id", "items", "coupon", "next_coupon", "total"});
  CHECK(template_variables(compiled("{b}{a}{{b}}{A}")) == V{"b", "a", "A"});
  CHECK(template_variables(compiled("no tags { x }")) == V{});
  // Names used only inside {#items} are the elements' fields: listed per section, not at the top level.
  CHECK(template_variables(compiled("{#items}{sku}{/items}")) == V{"items"});
  // Inverted sections do not change scope: their names are top-level.
  CHECK(template_variables(compiled("{^vip}{promo}{/^vip}")) == V{"vip", "promo"});
}

TEST_CASE("variables: section fields per {#section}") {
  auto fields = section_fields(compiled(kReceipt));
  REQUIRE(fields.size() == 1);
  CHECK(fields[0].section == "items");
  CHECK(fields[0].names == V{"name", "qty", "shop"});
  auto two = section_fields(compiled("{#a}{x}{x}{/a}{^b}{y}{/^b}{#a}{/a}{#c}{z}{/c}"));
  REQUIRE(two.size() == 3);
  CHECK(two[0].section == "a");
  CHECK(two[0].names == V{"x"});
  CHECK(two[1].section == "a");
  CHECK(two[1].names == V{});
  CHECK(two[2].section == "c");
  CHECK(two[2].names == V{"z"});
}

TEST_CASE("missing: top-level names absent from the send call, in template order") {
  CHECK(missing("{a}{b}{c}{b}", R"({"b":1})") == V{"a", "c"});
  CHECK(missing("{a}{b}", R"({"a":null,"b":""})") == V{});  // null and "" are provided values
  CHECK(missing("{A}", R"({"a":1})") == V{"A"});            // case-sensitive
}

TEST_CASE("missing: a name inside {#items} is provided by every element or by the top level") {
  const char* tpl = "{#items}{name}{qty}{/items}";
  CHECK(missing(tpl, R"({"items":[{"name":"a","qty":1},{"name":"b","qty":2}]})") == V{});
  CHECK(missing(tpl, R"({"items":[{"name":"a","qty":1},{"name":"b"}]})") == V{"qty"});
  CHECK(missing(tpl, R"({"qty":1,"items":[{"name":"a"},{"name":"b"}]})") == V{});
  CHECK(missing(tpl, R"({"items":[{},{}]})") == V{"name", "qty"});
  // The order is the template's, whatever element lacks the name first.
  CHECK(missing(tpl, R"({"items":[{"name":"a"},{"qty":1}]})") == V{"name", "qty"});
  // An empty array needs nothing; a missing array is itself the missing name.
  CHECK(missing(tpl, R"({"items":[]})") == V{});
  CHECK(missing(tpl, "{}") == V{"items"});
  // Over true the body needs top-level names; over false or null nothing.
  CHECK(missing(tpl, R"({"items":true})") == V{"name", "qty"});
  CHECK(missing(tpl, R"({"items":true,"name":1,"qty":2})") == V{});
  CHECK(missing(tpl, R"({"items":false})") == V{});
  CHECK(missing(tpl, R"({"items":null})") == V{});
  // A value render() refuses adds no missing names (it fails with invalid_variable instead).
  CHECK(missing(tpl, R"({"items":"x"})") == V{});
}

TEST_CASE("missing: {^name} never needs its name; its body needs top-level names only when it renders") {
  const char* tpl = "{^coupon}Use {next_coupon}{/^coupon}";
  CHECK(missing(tpl, "{}") == V{"next_coupon"});
  CHECK(missing(tpl, R"({"coupon":false})") == V{"next_coupon"});
  CHECK(missing(tpl, R"({"coupon":false,"next_coupon":"W"})") == V{});
  CHECK(missing(tpl, R"({"coupon":"SPRING"})") == V{});
  CHECK(missing(tpl, R"({"coupon":0})") == V{});
}

TEST_CASE("missing: the receipt with everything, and with pieces left out") {
  CHECK(missing(kReceipt,
                R"({"name":"A","order_id":1,"items":[{"qty":1}],"shop":"S","coupon":true,"total":3})") ==
        V{});
  CHECK(missing(kReceipt, R"({"items":[{"qty":1}],"coupon":false})") ==
        V{"name", "order_id", "shop", "next_coupon", "total"});
}
