// The env vault's variables (core/vault/variables.h): key names, value limits, the push body, merging a
// push with and without prune, and the key-name diff.

#include <doctest/doctest.h>

#include "core/vault/variables.h"

using namespace core::vault;
namespace json = core::json;

namespace {
core::Result<PushRequest> push_of(std::string_view text) {
  auto body = core::parse_json_object(text);
  REQUIRE(body.ok());
  return parse_push(*body);
}
}  // namespace

TEST_SUITE_BEGIN("vault");

TEST_CASE("vault variables: key names follow [A-Za-z_][A-Za-z0-9_]* and a length limit") {
  CHECK(validate_key("DATABASE_URL").ok());
  CHECK(validate_key("_x9").ok());
  CHECK(validate_key("a").ok());
  CHECK(validate_key(std::string(kMaxKeyLength, 'K')).ok());
  for (std::string bad : {"", "9LIVES", "WITH-DASH", "WITH SPACE", "DOT.TED", "ÜMLAUT", "A=B"}) {
    CAPTURE(bad);
    auto st = validate_key(bad);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == "invalid_key");
  }
  auto long_key = validate_key(std::string(kMaxKeyLength + 1, 'K'));
  REQUIRE_FALSE(long_key.ok());
  CHECK(long_key.error().message.find("longer than 128") != std::string::npos);
}

TEST_CASE("vault variables: values are strings without NUL, within the size limits") {
  CHECK(validate_value("K", "").ok());
  CHECK(validate_value("K", std::string(kMaxValueBytes, 'v')).ok());
  CHECK(validate_value("K", std::string(kMaxValueBytes + 1, 'v')).error().code == "value_too_large");
  CHECK(validate_value("K", std::string("a\0b", 3)).error().code == "invalid_value");
}

TEST_CASE("vault variables: the push body") {
  auto p = push_of(R"({"variables":{"A":{"value":"1"},"B":{"value":"two","public":true},"C":"3"},
                       "prune":true,"baseVersion":4})");
  REQUIRE(p.ok());
  CHECK(p->prune);
  CHECK(p->base_version == 4);
  REQUIRE(p->variables.size() == 3);
  CHECK(p->variables.at("A") == Variable{"1", false});
  CHECK(p->variables.at("B") == Variable{"two", true});
  CHECK(p->variables.at("C") == Variable{"3", false});

  auto minimal = push_of(R"({"variables":{}})");
  REQUIRE(minimal.ok());
  CHECK_FALSE(minimal->prune);
  CHECK_FALSE(minimal->base_version.has_value());

  struct Bad {
    const char* body;
    const char* code;
    const char* says;
  };
  for (const Bad& b : {
           Bad{R"({})", "invalid_body", "'variables' must be an object"},
           Bad{R"({"variables":[]})", "invalid_body", "'variables' must be an object"},
           Bad{R"({"variables":{"A":{"value":1}}})", "invalid_body", "variables.A.value must be a string"},
           Bad{R"({"variables":{"A":{}}})", "invalid_body", "variables.A.value must be a string"},
           Bad{R"({"variables":{"A":{"value":"x","public":"yes"}}})", "invalid_body",
               "public must be a boolean"},
           Bad{R"({"variables":{"A":{"value":"x","secret":true}}})", "invalid_body",
               "unknown member 'secret'"},
           Bad{R"({"variables":{"A":5}})", "invalid_body", "must be {value, public?} or a string"},
           Bad{R"({"variables":{"1A":"x"}})", "invalid_key", "'1A' must match"},
           Bad{R"({"variables":{},"prune":"yes"})", "invalid_body", "'prune' must be a boolean"},
           Bad{R"({"variables":{},"baseVersion":-1})", "invalid_body",
               "'baseVersion' must be a non-negative"},
           Bad{R"({"variables":{},"baseVersion":1.5})", "invalid_body",
               "'baseVersion' must be a non-negative"},
           Bad{R"({"variables":{},"base":1})", "invalid_body", "unknown member 'base'"},
       }) {
    CAPTURE(b.body);
    auto r = push_of(b.body);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == b.code);
    CHECK(r.error().message.find(b.says) != std::string::npos);
  }
}

TEST_CASE("vault variables: too many variables or too many bytes") {
  json::object vars;
  for (std::size_t i = 0; i <= kMaxVariables; ++i) vars["K" + std::to_string(i)] = "v";
  auto many = parse_push(json::object{{"variables", vars}});
  REQUIRE_FALSE(many.ok());
  CHECK(many.error().code == "too_many_variables");

  json::object big;
  for (std::size_t i = 0; i < kMaxTotalValueBytes / kMaxValueBytes + 1; ++i)
    big["K" + std::to_string(i)] = std::string(kMaxValueBytes, 'v');
  auto heavy = parse_push(json::object{{"variables", big}});
  REQUIRE_FALSE(heavy.ok());
  CHECK(heavy.error().code == "value_too_large");
}

TEST_CASE("vault variables: merge keeps absent keys, prune drops them") {
  Variables current{{"KEEP", {"k", false}}, {"OLD", {"o", true}}};
  PushRequest push;
  push.variables = {{"OLD", {"new", true}}, {"ADD", {"a", false}}};
  auto merged = merge_push(current, push);
  REQUIRE(merged.ok());
  CHECK(*merged == Variables{{"ADD", {"a", false}}, {"KEEP", {"k", false}}, {"OLD", {"new", true}}});
  push.prune = true;
  auto pruned = merge_push(current, push);
  REQUIRE(pruned.ok());
  CHECK(*pruned == Variables{{"ADD", {"a", false}}, {"OLD", {"new", true}}});
}

TEST_CASE("vault variables: the diff names keys added, removed and changed (value or public flag)") {
  Variables before{{"A", {"1", false}}, {"B", {"2", false}}, {"C", {"3", false}}, {"D", {"4", false}}};
  Variables after{{"A", {"1", false}}, {"B", {"2b", false}}, {"C", {"3", true}}, {"E", {"5", false}}};
  Diff d = diff(before, after);
  CHECK(d.added == std::vector<std::string>{"E"});
  CHECK(d.removed == std::vector<std::string>{"D"});
  CHECK(d.changed == std::vector<std::string>{"B", "C"});
  CHECK(core::to_json(diff_to_json(d)) == R"({"added":["E"],"removed":["D"],"changed":["B","C"]})");
  CHECK(diff(before, before).empty());
}

TEST_SUITE_END();
