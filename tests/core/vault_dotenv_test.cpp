// .env files (core/vault/dotenv.h): comments, `export`, quoting and escapes, errors with line numbers, and
// the round trip write -> parse.

#include <doctest/doctest.h>

#include "core/vault/dotenv.h"

using namespace core::vault;

TEST_SUITE_BEGIN("vault");

TEST_CASE("vault dotenv: plain, quoted, exported and commented lines") {
  auto parsed = parse_dotenv(
      "# a comment\n"
      "\n"
      "PLAIN=value\n"
      "  SPACED  =  padded value   \n"
      "export EXPORTED=yes\n"
      "TRAILING=abc # comment\n"
      "HASH_INSIDE=abc#def\n"
      "EMPTY=\n"
      "SINGLE='it is $HOME \\n literal'\n"
      "DOUBLE=\"line1\\nline2\\t\\\"q\\\" \\\\ \\$x \\q\"  # after\n"
      "MULTI=\"first\n"
      "second\"\n"
      "CRLF=win\r\n"
      "DUP=1\n"
      "DUP=2\n");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  DotenvEntries want{
      {"PLAIN", "value"},
      {"SPACED", "padded value"},
      {"EXPORTED", "yes"},
      {"TRAILING", "abc"},
      {"HASH_INSIDE", "abc#def"},
      {"EMPTY", ""},
      {"SINGLE", "it is $HOME \\n literal"},
      {"DOUBLE", "line1\nline2\t\"q\" \\ $x \\q"},
      {"MULTI", "first\nsecond"},
      {"CRLF", "win"},
      {"DUP", "2"},
  };
  CHECK(*parsed == want);
}

TEST_CASE("vault dotenv: errors name the line") {
  struct Bad {
    const char* text;
    const char* message;
  };
  for (const Bad& b : {
           Bad{"A=1\nNOEQUALS\n", "line 2: expected KEY=VALUE"},
           Bad{"1BAD=x\n", "line 1: variable name '1BAD' must match"},
           Bad{"A-B=x\n", "line 1: variable name 'A-B' must match"},
           Bad{"A=1\nB=\"open\n\n", "line 2: unterminated double-quoted value"},
           Bad{"B='open\n", "line 1: unterminated single-quoted value"},
           Bad{"B='x' y\n", "line 1: unexpected text after the closing quote"},
           Bad{"export\n", "line 1: expected KEY=VALUE"},
       }) {
    CAPTURE(b.text);
    auto r = parse_dotenv(b.text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid_dotenv");
    CHECK(r.error().message.rfind(b.message, 0) == 0);
  }
}

TEST_CASE("vault dotenv: write quotes only what needs it and reads back the same") {
  DotenvEntries entries{
      {"URL", "postgres://u@h:5432/db"},
      {"SPACES", "a b c"},
      {"QUOTE", "it's"},
      {"NEWLINE", "l1\nl2"},
      {"DOLLAR", "$NOT_EXPANDED and \"q\" \\ back"},
      {"EMPTY", ""},
      {"HASH", "x #y"},
  };
  std::string text = write_dotenv(entries, "env-vault: acme/api production v3");
  CHECK(text ==
        "# env-vault: acme/api production v3\n"
        "DOLLAR='$NOT_EXPANDED and \"q\" \\ back'\n"
        "EMPTY=\n"
        "HASH='x #y'\n"
        "NEWLINE=\"l1\\nl2\"\n"
        "QUOTE=\"it's\"\n"
        "SPACES='a b c'\n"
        "URL=postgres://u@h:5432/db\n");
  auto back = parse_dotenv(text);
  REQUIRE(back.ok());
  CHECK(*back == entries);

  DotenvEntries hard{{"K", "a'b\n$c\\\"d\t\r"}};
  auto hard_back = parse_dotenv(write_dotenv(hard));
  REQUIRE(hard_back.ok());
  CHECK(*hard_back == hard);
}

TEST_SUITE_END();
