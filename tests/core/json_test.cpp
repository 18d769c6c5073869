#include "core/json.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace core;

namespace {

json::object object(std::string_view text) {
  auto o = parse_json_object(text);
  REQUIRE_MESSAGE(o.ok(), text);
  return *o;
}

}  // namespace

TEST_CASE("parse_json: invalid_json for anything that is not one JSON value") {
  for (std::string_view bad : {"", " ", "{", "{\"a\":1,}", "{} x", "[1] [2]", "{'a':1}", "// c\n{}", "nul",
                               "\"\xff\"", "01", "{\"a\":NaN}"}) {
    auto v = parse_json(bad);
    CHECK_MESSAGE(!v.ok(), bad);
    if (!v.ok()) CHECK(v.error().code == "invalid_json");
  }
  CHECK(parse_json(" [1, 2] ").ok());
  CHECK(parse_json("null").ok());
  CHECK(to_json(*parse_json("{\"a\": [1, \"x\", null]}")) == "{\"a\":[1,\"x\",null]}");
}

TEST_CASE("parse_json_object: invalid_body for JSON that is not an object") {
  for (std::string_view bad : {"[]", "\"text\"", "null", "5", "true"}) {
    auto o = parse_json_object(bad);
    CHECK_MESSAGE(!o.ok(), bad);
    if (!o.ok()) CHECK(o.error().code == "invalid_body");
  }
  CHECK(parse_json_object("{").error().code == "invalid_json");
  CHECK(object("{\"a\":1}").size() == 1);
}

TEST_CASE("require_string and optional_string") {
  const json::object o = object(R"({"name":"Acme","n":5,"nul":null,"empty":""})");
  CHECK(*require_string(o, "name") == "Acme");
  CHECK(*require_string(o, "empty") == "");
  CHECK(require_string(o, "missing").error().code == "missing_field");
  CHECK(require_string(o, "missing").error().message == "field 'missing' is required");
  CHECK(require_string(o, "nul").error().code == "missing_field");
  CHECK(require_string(o, "n").error().code == "invalid_field");
  CHECK(require_string(o, "n").error().message == "field 'n' must be a string");
  CHECK(*optional_string(o, "name") == std::optional<std::string>("Acme"));
  CHECK_FALSE(optional_string(o, "missing")->has_value());
  CHECK_FALSE(optional_string(o, "nul")->has_value());
  CHECK(optional_string(o, "n").error().code == "invalid_field");
}

TEST_CASE("require_int accepts only JSON integers that fit in int64") {
  const json::object o = object(
      R"({"five":5,"neg":-3,"zero":0,"dec":5.5,"dec0":5.0,"exp":1e2,"str":"5","bool":true,
          "max":9223372036854775807,"min":-9223372036854775808,"over":9223372036854775808,
          "umax":18446744073709551615,"huge":123456789012345678901234567890,"nul":null})");
  CHECK(*require_int(o, "five") == 5);
  CHECK(*require_int(o, "neg") == -3);
  CHECK(*require_int(o, "zero") == 0);
  CHECK(*require_int(o, "max") == INT64_MAX);
  CHECK(*require_int(o, "min") == INT64_MIN);
  for (std::string_view key : {"dec", "dec0", "exp", "str", "bool", "over", "umax", "huge"}) {
    auto i = require_int(o, key);
    CHECK_MESSAGE(!i.ok(), key);
    if (!i.ok()) CHECK(i.error().code == "invalid_field");
  }
  CHECK(require_int(o, "dec").error().message == "field 'dec' must be an integer");
  CHECK(require_int(o, "umax").error().message == "field 'umax' must be an integer in range");
  CHECK(require_int(o, "missing").error().code == "missing_field");
  CHECK(require_int(o, "nul").error().code == "missing_field");
  CHECK(**optional_int(o, "neg") == -3);
  CHECK_FALSE(optional_int(o, "missing")->has_value());
  CHECK_FALSE(optional_int(o, "nul")->has_value());
  CHECK(optional_int(o, "dec").error().code == "invalid_field");
  CHECK(optional_int(o, "over").error().code == "invalid_field");
}

TEST_CASE("require_bool and optional_bool") {
  const json::object o = object(R"({"t":true,"f":false,"one":1,"s":"true","nul":null})");
  CHECK(*require_bool(o, "t") == true);
  CHECK(*require_bool(o, "f") == false);
  CHECK(require_bool(o, "one").error().code == "invalid_field");
  CHECK(require_bool(o, "s").error().code == "invalid_field");
  CHECK(require_bool(o, "missing").error().code == "missing_field");
  CHECK(require_bool(o, "nul").error().code == "missing_field");
  CHECK(*optional_bool(o, "f") == std::optional<bool>(false));
  CHECK_FALSE(optional_bool(o, "missing")->has_value());
  CHECK_FALSE(optional_bool(o, "nul")->has_value());
  CHECK(optional_bool(o, "one").error().code == "invalid_field");
}

TEST_CASE("string arrays") {
  const json::object o = object(
      R"({"perms":["domains.view","send.execute"],"empty":[],"mixed":["a",1],"notarr":"a","withnull":["a",null],"nul":null})");
  CHECK(*require_string_array(o, "perms") == std::vector<std::string>{"domains.view", "send.execute"});
  CHECK(require_string_array(o, "empty")->empty());
  CHECK(require_string_array(o, "mixed").error().code == "invalid_field");
  CHECK(require_string_array(o, "mixed").error().message == "field 'mixed' must be an array of strings");
  CHECK(require_string_array(o, "notarr").error().code == "invalid_field");
  CHECK(require_string_array(o, "withnull").error().code == "invalid_field");
  CHECK(require_string_array(o, "missing").error().code == "missing_field");
  CHECK(require_string_array(o, "nul").error().code == "missing_field");
  CHECK(**optional_string_array(o, "perms") == std::vector<std::string>{"domains.view", "send.execute"});
  CHECK_FALSE(optional_string_array(o, "missing")->has_value());
  CHECK_FALSE(optional_string_array(o, "nul")->has_value());
  CHECK(optional_string_array(o, "mixed").error().code == "invalid_field");
}

TEST_CASE("unknown fields are ignored") {
  const json::object o = object(R"({"name":"x","unexpected":{"deep":[1,2,3]}})");
  CHECK(*require_string(o, "name") == "x");
}

TEST_CASE("parse_json_object into a caller's memory resource gives the same object and the same errors") {
  unsigned char arena[256];
  core::json::monotonic_resource memory(arena, sizeof arena);
  auto o = core::parse_json_object(R"({"id":"exp_1","grossMinor":1200,"tags":["a","b"]})", &memory);
  REQUIRE(o.ok());
  CHECK(*o == *core::parse_json_object(R"({"id":"exp_1","grossMinor":1200,"tags":["a","b"]})"));
  CHECK(o->storage().get() == &memory);
  // Larger than the arena: the resource takes more memory from the heap, the result is whole.
  std::string big = R"({"text":")" + std::string(1000, 'x') + R"("})";
  auto large = core::parse_json_object(big, &memory);
  REQUIRE(large.ok());
  CHECK(large->at("text").as_string().size() == 1000);
  CHECK(core::parse_json_object("[1]", &memory).error().code == "invalid_body");
  CHECK(core::parse_json_object("{", &memory).error().code == "invalid_json");
}
