// Rendering (spec document 2 "Template variable syntax", spec/DECISIONS.md "Templates"): escaping modes,
// values, sections with item fields shadowing top-level variables, inverted-section truthiness, errors.
#include "core/mail/render.h"

#include <doctest/doctest.h>

#include <string>

#include "core/json.h"

using namespace core::mail;
namespace json = boost::json;

namespace {

json::object vars(std::string_view text) {
  auto o = core::parse_json_object(text);
  REQUIRE_MESSAGE(o.ok(), std::string(text));
  return std::move(o).value();
}

std::string html(std::string_view tpl, std::string_view variables) {
  auto t = Template::compile(tpl);
  REQUIRE_MESSAGE(t.ok(), t.error().message);
  auto out = render(*t, vars(variables), Escaping::html);
  REQUIRE_MESSAGE(out.ok(), out.error().message);
  return *out;
}

std::string plain(std::string_view tpl, std::string_view variables) {
  auto t = Template::compile(tpl);
  REQUIRE(t.ok());
  auto out = render(*t, vars(variables), Escaping::none);
  REQUIRE_MESSAGE(out.ok(), out.error().message);
  return *out;
}

core::Error error_of(std::string_view tpl, std::string_view variables) {
  auto t = Template::compile(tpl);
  REQUIRE(t.ok());
  auto out = render(*t, vars(variables), Escaping::html);
  REQUIRE_FALSE(out.ok());
  return out.error();
}

}  // namespace

TEST_CASE("render: scalar substitution with single and double braces") {
  CHECK(html("Hi {name}, order {{order_id}}.", R"({"name":"Ali","order_id":"TR-1"})") ==
        "Hi Ali, order TR-1.");
  CHECK(html("{a}{a}{a}", R"({"a":"x"})") == "xxx");
  CHECK(html("no tags", "{}") == "no tags");
  CHECK(html("", "{}") == "");
  // Case-sensitive: `Name` and `name` are two variables.
  CHECK(html("{Name}/{name}", R"({"Name":"A","name":"b"})") == "A/b");
}

TEST_CASE("render: HTML bodies escape exactly & < > \" '") {
  CHECK(html("{v}", R"({"v":"Ali & Veli <b>\"x\" 'y'"})") ==
        "Ali &amp; Veli &lt;b&gt;&quot;x&quot; &#39;y&#39;");
  // Nothing else: slash, backtick, equals, an existing entity (escaped again), newlines, tabs.
  CHECK(html("{v}", R"({"v":"a/b `c` =d &amp; \n\t"})") == "a/b `c` =d &amp;amp; \n\t");
  CHECK(html("{v}", R"({"v":"&&<<>>"})") == "&amp;&amp;&lt;&lt;&gt;&gt;");
  // Literal text is never escaped.
  CHECK(html("<b>'&'</b>{v}", R"({"v":"<"})") == "<b>'&'</b>&lt;");
}

TEST_CASE("render: subjects and text bodies take values as they are") {
  CHECK(plain("Re: {v}", R"({"v":"Ali & Veli <b>\"x\" 'y'"})") == "Re: Ali & Veli <b>\"x\" 'y'");
}

TEST_CASE("render: UTF-8 passes through unchanged in text and values") {
  CHECK(html("Çağ {v} 😀", R"({"v":"İstanbul’da & ş"})") == "Çağ İstanbul’da &amp; ş 😀");
  CHECK(plain("{v}", R"({"v":"\u00e7\ud83d\ude00"})") == "ç😀");
}

TEST_CASE("render: numbers are their JSON text, booleans true/false, null nothing") {
  CHECK(html("{a}|{b}|{c}|{d}", R"({"a":0,"b":-42,"c":20,"d":18446744073709551615})") ==
        "0|-42|20|18446744073709551615");
  CHECK(html("{a}|{b}|{c}", R"({"a":1.5,"b":0.1,"c":-2.25})") == "1.5|0.1|-2.25");
  // A number written with a fraction or exponent is a double: %g with the fewest digits that read back.
  CHECK(html("{a}|{b}|{c}|{d}", R"({"a":2.0,"b":1e21,"c":1E-7,"d":0.0001})") == "2|1e+21|1e-07|0.0001");
  CHECK(html("{a}|{b}|{c}", R"({"a":123456.789,"b":0.30000000000000004,"c":1e16})") ==
        "123456.789|0.30000000000000004|1e+16");
  CHECK(html("{t}|{f}|{n}|", R"({"t":true,"f":false,"n":null})") == "true|false||");
}

TEST_CASE("render: CSS and JSON braces in the text stay as written") {
  const std::string css =
      "<style>body { margin:0; } @media (max-width:600px) { .c { width:100% !important; } }</style>";
  CHECK(html(css + "{x}", R"({"x":"1"})") == css + "1");
  CHECK(html(R"(<script>var d = {"a": {b: 1}, "c": [{ }]};</script>{{ x }}{x})", R"({"x":"<"})") ==
        R"(<script>var d = {"a": {b: 1}, "c": [{ }]};</script>{{ x }}&lt;)");
}

TEST_CASE("render: lines holding only a tag keep their newlines") {
  CHECK(html("<ul>\n{#items}\n<li>{name}</li>\n{/items}\n</ul>",
             R"({"items":[{"name":"a"},{"name":"b"}]})") == "<ul>\n\n<li>a</li>\n\n<li>b</li>\n\n</ul>");
  CHECK(html("x\n{^c}\ny\n{/^c}\nz", R"({"c":false})") == "x\n\ny\n\nz");
}

TEST_CASE("render: a section repeats per array element with the item's fields first") {
  const std::string tpl = "{name}:{#items}[{name} x{qty} {shop}]{/items}.";
  // The item's `name` shadows the top-level `name`; `shop` falls back to the top level.
  CHECK(html(tpl, R"({"name":"Root","shop":"S&S","items":[{"name":"A","qty":2},{"name":"<B>","qty":1}]})") ==
        "Root:[A x2 S&amp;S][&lt;B&gt; x1 S&amp;S].");
  // An element without the field uses the top-level variable.
  CHECK(html(tpl, R"({"name":"Root","shop":"S","items":[{"qty":2},{"name":"B","qty":1}]})") ==
        "Root:[Root x2 S][B x1 S].");
  // An empty array renders nothing.
  CHECK(html(tpl, R"({"name":"R","shop":"S","items":[]})") == "R:.");
  // An item's null field shadows the top level and renders nothing.
  CHECK(html("{#items}[{name}]{/items}", R"({"name":"R","items":[{"name":null}]})") == "[]");
}

TEST_CASE("render: a section over true renders once, over false or null not at all") {
  CHECK(html("a{#vip}[VIP {name}]{/vip}b", R"({"vip":true,"name":"N"})") == "a[VIP N]b");
  CHECK(html("a{#vip}[VIP {name}]{/vip}b", R"({"vip":false})") == "ab");
  CHECK(html("a{#vip}[VIP {name}]{/vip}b", R"({"vip":null})") == "ab");
}

TEST_CASE("render: a section over any other value is invalid_variable") {
  for (std::string_view value :
       {R"("x")", R"("")", "0", "1", "{}", R"({"a":1})", "[1]", R"([{"a":1},"b"])"}) {
    CAPTURE(value);
    auto e = error_of("{#items}x{/items}", std::string(R"({"items":)") + std::string(value) + "}");
    CHECK(e.code == "invalid_variable");
    CHECK(e.message == "'items' must be an array of objects, true, false or null for {#items}");
  }
}

TEST_CASE("render: inverted sections render for missing, null, false, empty string and empty array") {
  const std::string tpl = "[{^c}none{/^c}]";
  CHECK(html(tpl, "{}") == "[none]");
  CHECK(html(tpl, R"({"c":null})") == "[none]");
  CHECK(html(tpl, R"({"c":false})") == "[none]");
  CHECK(html(tpl, R"({"c":""})") == "[none]");
  CHECK(html(tpl, R"({"c":[]})") == "[none]");
  // 0 is a value; so are true, text (even a space or "0"), arrays with elements and objects, empty or not.
  for (std::string_view value :
       {"0", "0.0", "-1", "true", R"(" ")", R"("0")", R"("false")", "[0]", "[null]", "{}", R"({"a":1})"}) {
    CAPTURE(value);
    CHECK(html(tpl, std::string(R"({"c":)") + std::string(value) + "}") == "[]");
  }
  // The body sees the top-level variables.
  CHECK(html("{^coupon}Use {next} & save{/^coupon}", R"({"coupon":false,"next":"W&10"})") ==
        "Use W&amp;10 & save");
}

TEST_CASE("render: a missing variable fails with every missing name") {
  auto e = error_of("{a}{b}{#items}{c}{/items}{d}", R"({"b":1,"items":[{"c":1},{}]})");
  CHECK(e.code == "missing_variables");
  CHECK(e.message == "missing variables: a, c, d");
  CHECK(error_of("{#items}{/items}", "{}").message == "missing variables: items");
}

TEST_CASE("render: arrays and objects in a scalar tag are invalid_variable") {
  auto e = error_of("{items}", R"({"items":[1]})");
  CHECK(e.code == "invalid_variable");
  CHECK(e.message == "'items' is an array: a {items} tag takes a string, number, boolean or null");
  CHECK(error_of("{o}", R"({"o":{}})").message ==
        "'o' is an object: a {o} tag takes a string, number, boolean or null");
  CHECK(error_of("{#items}{v}{/items}", R"({"items":[{"v":[]}]})").code == "invalid_variable");
}

TEST_CASE("render: render_to appends to the caller's buffer") {
  auto t = Template::compile("{a}!");
  REQUIRE(t.ok());
  std::string out = "prefix:";
  CHECK(render_to(out, *t, vars(R"({"a":"x"})"), Escaping::html).ok());
  CHECK(out == "prefix:x!");
}
