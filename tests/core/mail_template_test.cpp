// Template compilation (spec document 2 "Template variable syntax", spec/DECISIONS.md "Templates"): which
// braces are tags, the compiled node list, and compile errors with their byte offsets.
#include "core/mail/template.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace core::mail;

namespace {

// The nodes as short strings: `'text'` for literals, `{name}`, `{#name}->end`, `{^name}->end`, `{/name}`.
std::vector<std::string> shape(std::string_view text) {
  auto t = Template::compile(text);
  REQUIRE_MESSAGE(t.ok(), t.error().message);
  std::vector<std::string> out;
  for (const TemplateNode& n : t->nodes()) {
    const std::string v(t->view(n));
    switch (n.kind) {
      case NodeKind::literal:
        out.push_back("'" + v + "'");
        break;
      case NodeKind::variable:
        out.push_back("{" + v + "}");
        break;
      case NodeKind::section:
        out.push_back("{#" + v + "}->" + std::to_string(n.end));
        break;
      case NodeKind::inverted_section:
        out.push_back("{^" + v + "}->" + std::to_string(n.end));
        break;
      case NodeKind::section_end:
        out.push_back("{/" + v + "}");
        break;
    }
  }
  return out;
}

struct Failure {
  std::string code;
  std::size_t offset;
  std::string message;
};

Failure failure(std::string_view text) {
  std::size_t offset = 999999;
  auto t = Template::compile(text, &offset);
  REQUIRE_FALSE(t.ok());
  return {t.error().code, offset, t.error().message};
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("templates: single and double braces around a name are tags") {
  CHECK(shape("Hi {name}!") == V{"'Hi '", "{name}", "'!'"});
  CHECK(shape("Hi {{name}}!") == V{"'Hi '", "{name}", "'!'"});
  CHECK(shape("{a}{b}") == V{"{a}", "{b}"});
  CHECK(shape("{Order_ID2}") == V{"{Order_ID2}"});
  CHECK(shape("{_}{9}") == V{"{_}", "{9}"});
  CHECK(shape("") == V{});
  CHECK(shape("no tags") == V{"'no tags'"});
}

TEST_CASE("templates: names are case-sensitive and kept as written") {
  auto t = Template::compile("{Name}{name}");
  REQUIRE(t.ok());
  REQUIRE(t->nodes().size() == 2);
  CHECK(t->view(t->nodes()[0]) == "Name");
  CHECK(t->view(t->nodes()[1]) == "name");
}

TEST_CASE("templates: any other brace is literal text") {
  // CSS, including a nested @media block.
  const std::string css = "body { margin:0; } @media (max-width:600px) { .x { padding:0; } }";
  CHECK(shape(css) == V{"'" + css + "'"});
  // JSON.
  CHECK(shape(R"({"a": {"b": [1, 2]}})") == V{R"('{"a": {"b": [1, 2]}}')"});
  // Spaces, dashes, dots, empty braces, a sigil without a name, non-ASCII letters.
  for (std::string_view text :
       {"{ }",     "{}",    "{{}}",  "{ name }", "{{ name }}", "{a-b}", "{a.b}", "{#}",
        "{/^}",    "{#/x}", "{^/x}", "{//x}",    "{x",         "{{x}",  "x}",    "{é}",
        "{naïve}", "{$x}",  "{!x}",  "{>x}",     "{&x}",       "{=x}",  "{x }",  "{ x}"}) {
    CAPTURE(text);
    auto t = Template::compile(text);
    REQUIRE(t.ok());
    bool all_literal = true;
    std::string joined;
    for (const TemplateNode& n : t->nodes()) {
      all_literal = all_literal && n.kind == NodeKind::literal;
      joined += t->view(n);
    }
    if (text == "{{x}") {
      // The inner `{x}` is a tag; only the first brace is text.
      CHECK(shape(text) == V{"'{'", "{x}"});
    } else {
      CHECK(all_literal);
      CHECK(joined == text);
    }
  }
}

TEST_CASE("templates: unbalanced braces take the longest tag at the first brace that starts one") {
  CHECK(shape("{{x}") == V{"'{'", "{x}"});
  CHECK(shape("{x}}") == V{"{x}", "'}'"});
  CHECK(shape("{{{x}}}") == V{"'{'", "{x}", "'}'"});
  CHECK(shape("{{x}}}") == V{"{x}", "'}'"});
  CHECK(shape("{{{x}") == V{"'{{'", "{x}"});
  CHECK(shape("{ {x} }") == V{"'{ '", "{x}", "' }'"});
}

TEST_CASE("templates: sections and inverted sections know their end") {
  CHECK(shape("{#items}<li>{name}</li>{/items}") ==
        V{"{#items}->4", "'<li>'", "{name}", "'</li>'", "{/items}"});
  CHECK(shape("a{^coupon}none{/^coupon}b") == V{"'a'", "{^coupon}->3", "'none'", "{/coupon}", "'b'"});
  // Double and single braces may be mixed on the two ends of a section.
  CHECK(shape("{{#items}}x{/items}") == V{"{#items}->2", "'x'", "{/items}"});
  CHECK(shape("{^a}x{{/^a}}") == V{"{^a}->2", "'x'", "{/a}"});
  // Two sections one after the other, the same name twice.
  CHECK(shape("{#a}{/a}{#a}{/a}") == V{"{#a}->1", "{/a}", "{#a}->3", "{/a}"});
  // An empty section.
  CHECK(shape("{^a}{/^a}") == V{"{^a}->1", "{/a}"});
}

TEST_CASE("templates: lines holding only a tag are kept as written") {
  CHECK(shape("<ul>\n{#items}\n<li>{name}</li>\n{/items}\n</ul>\n") ==
        V{"'<ul>\n'", "{#items}->5", "'\n<li>'", "{name}", "'</li>\n'", "{/items}", "'\n</ul>\n'"});
  CHECK(shape("  {name}  \n") == V{"'  '", "{name}", "'  \n'"});
}

TEST_CASE("templates: offsets point at the tag's first brace") {
  auto t = Template::compile("ab{{x}}c{#s}{y}{/s}");
  REQUIRE(t.ok());
  std::vector<std::uint32_t> offsets;
  for (const TemplateNode& n : t->nodes()) offsets.push_back(n.offset);
  CHECK(offsets == std::vector<std::uint32_t>{0, 2, 7, 8, 12, 15});
  CHECK(t->literal_bytes() == 3);
  CHECK(t->text() == "ab{{x}}c{#s}{y}{/s}");
}

TEST_CASE("templates: UTF-8 text is literal and kept byte for byte") {
  const std::string text = "Merhaba {name}, Çağ İstanbul’da 😀 {x}";
  auto t = Template::compile(text);
  REQUIRE(t.ok());
  CHECK(shape(text) == V{"'Merhaba '", "{name}", "', Çağ İstanbul’da 😀 '", "{x}"});
}

TEST_CASE("templates: a section opened inside another is a compile error") {
  auto f = failure("{#a}x{#b}y{/b}{/a}");
  CHECK(f.code == "template_nested_section");
  CHECK(f.offset == 5);
  CHECK(f.message == "section 'b' opened inside section 'a' (sections do not nest) at byte 5");
  CHECK(failure("{#a}{^b}{/^b}{/a}").code == "template_nested_section");
  CHECK(failure("{^a}{#a}{/a}{/^a}").offset == 4);
  CHECK(failure("{#a}{{#a}}").code == "template_nested_section");
}

TEST_CASE("templates: an end tag with no open section is a compile error") {
  auto f = failure("Hi {name}{/items}");
  CHECK(f.code == "template_unexpected_close");
  CHECK(f.offset == 9);
  CHECK(f.message == "'{/items}' closes no open section at byte 9");
  CHECK(failure("{#a}{/a}{{/^a}}").code == "template_unexpected_close");
  CHECK(failure("{#a}{/a}{{/^a}}").offset == 8);
}

TEST_CASE("templates: an end tag of another name or kind is a compile error") {
  auto f = failure("{#items}x{/item}");
  CHECK(f.code == "template_mismatched_close");
  CHECK(f.offset == 9);
  CHECK(f.message ==
        "'{/item}' does not close section 'items' opened at byte 0 (expected {/items}) at byte 9");
  // `{^x}` closes with `{/^x}` and `{#x}` with `{/x}`.
  auto g = failure("ab{^coupon}x{/coupon}");
  CHECK(g.code == "template_mismatched_close");
  CHECK(g.offset == 12);
  CHECK(g.message ==
        "'{/coupon}' does not close section 'coupon' opened at byte 2 (expected {/^coupon}) at byte 12");
  CHECK(failure("{#a}{/^a}").code == "template_mismatched_close");
  // Names are case-sensitive.
  CHECK(failure("{#Items}{/items}").code == "template_mismatched_close");
}

TEST_CASE("templates: a section left open is a compile error at its opener") {
  auto f = failure("<p>{#items}{name}</p>");
  CHECK(f.code == "template_unclosed_section");
  CHECK(f.offset == 3);
  CHECK(f.message == "section 'items' is never closed; opened at byte 3");
  CHECK(failure("{^x}").code == "template_unclosed_section");
  // A brace that only looks like an end tag does not close it.
  CHECK(failure("{#a}{ /a}").code == "template_unclosed_section");
}

TEST_CASE("templates: the offset is left alone on success and set on failure") {
  std::size_t offset = 42;
  CHECK(Template::compile("{a}", &offset).ok());
  CHECK(offset == 42);
  CHECK_FALSE(Template::compile("{/a}", &offset).ok());
  CHECK(offset == 0);
  CHECK_FALSE(Template::compile("{/a}").ok());  // no out-parameter needed
}

TEST_CASE("templates: texts over 16 MiB are refused") {
  std::string big(kMaxTemplateBytes, 'x');
  CHECK(Template::compile(big).ok());
  big.push_back('x');
  auto f = failure(big);
  CHECK(f.code == "template_too_large");
  CHECK(f.offset == 0);
}
