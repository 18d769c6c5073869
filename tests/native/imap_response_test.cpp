// IMAP response framing and parsing (native/imap/imap_response.h) on byte streams written by hand: what
// Dovecot sends, split at awkward places, and literals holding text that looks like protocol.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "native/imap/imap_response.h"

using native::imap::ImapResponse;
using native::imap::ImapValue;
using native::imap::parse_response;
using native::imap::ResponseFramer;

namespace {

// Feeds `stream` to a framer `step` bytes at a time and returns every complete response.
std::vector<std::string> frame(const std::string& stream, std::size_t step) {
  ResponseFramer framer;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < stream.size(); i += step) {
    framer.append(stream.substr(i, step));
    for (;;) {
      auto next = framer.next();
      REQUIRE(next.ok());
      if (!*next) break;
      out.push_back(**next);
    }
  }
  return out;
}

ImapResponse parsed(const std::string& text) {
  auto response = parse_response(text);
  REQUIRE_MESSAGE(response.ok(), response.error().message);
  return *response;
}

}  // namespace

TEST_CASE("the framer keeps a literal's line breaks and tag-like lines inside one response") {
  std::string body = "line one\r\np1 OK injected\r\n* 9 FETCH (UID 77)\r\n{5}\r\n";
  std::string stream = "* 1 FETCH (UID 7 BODY[] {" + std::to_string(body.size()) + "}\r\n" + body +
                       ")\r\n"
                       "p1 OK Fetch completed.\r\n";
  for (std::size_t step : {std::size_t{1}, std::size_t{3}, std::size_t{7}, stream.size()}) {
    CAPTURE(step);
    auto responses = frame(stream, step);
    REQUIRE(responses.size() == 2);
    CHECK(responses[1] == "p1 OK Fetch completed.");
    auto fetch = parsed(responses[0]);
    CHECK(fetch.tag == "*");
    CHECK(fetch.number == 1u);
    CHECK(fetch.name == "FETCH");
    const ImapValue* uid = native::imap::fetch_item(fetch, "UID");
    REQUIRE(uid != nullptr);
    CHECK(uid->number() == 7u);
    const ImapValue* bytes = native::imap::fetch_item(fetch, "body[]");
    REQUIRE(bytes != nullptr);
    CHECK(bytes->kind == ImapValue::Kind::string);
    CHECK(bytes->text == body);
  }
}

TEST_CASE("the framer waits for a literal's bytes and splits responses that arrive together") {
  ResponseFramer framer;
  framer.append("* 2 EXISTS\r\n* 1 FETCH (BODY[] {4}\r\nab");
  auto first = framer.next();
  REQUIRE(first.ok());
  REQUIRE(first->has_value());
  CHECK(**first == "* 2 EXISTS");
  auto waiting = framer.next();
  REQUIRE(waiting.ok());
  CHECK_FALSE(waiting->has_value());
  framer.append("\r\n)\r\np2 OK done\r\n");
  auto fetch = framer.next();
  REQUIRE(fetch.ok());
  REQUIRE(fetch->has_value());
  CHECK(**fetch == "* 1 FETCH (BODY[] {4}\r\nab\r\n)");
  auto done = framer.next();
  REQUIRE(done.ok());
  CHECK(**done == "p2 OK done");
  CHECK(framer.pending() == 0);
}

TEST_CASE("status text never announces a literal") {
  auto responses = frame("* OK text that ends like {5}\r\np3 NO [OVERQUOTA] over {2}\r\n", 4);
  REQUIRE(responses.size() == 2);
  auto no = parsed(responses[1]);
  CHECK(no.tag == "p3");
  CHECK(no.status == "NO");
  CHECK(no.code == "OVERQUOTA");
  CHECK(no.text == "over {2}");
}

TEST_CASE("the framer refuses a literal over its bound and a malformed announcement") {
  ResponseFramer small(100);
  small.append("* 1 FETCH (BODY[] {101}\r\n");
  auto refused = small.next();
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == "imap_error");

  ResponseFramer broken;
  broken.append("* 1 FETCH (BODY[] {12x}\r\n");
  CHECK_FALSE(broken.next().ok());
}

TEST_CASE("status responses: tag, status, response code and text") {
  auto ok = parsed("p2 OK [READ-WRITE] Select completed (0.001 + 0.000 secs).");
  CHECK(ok.tag == "p2");
  CHECK(ok.status == "OK");
  CHECK(ok.code == "READ-WRITE");
  CHECK(ok.text == "Select completed (0.001 + 0.000 secs).");

  auto copied = parsed("* OK [COPYUID 1795532076 4 2] Moved UIDs.");
  CHECK(copied.tag == "*");
  CHECK(copied.status == "OK");
  CHECK(copied.code == "COPYUID 1795532076 4 2");

  auto flags = parsed("* OK [PERMANENTFLAGS (\\Answered \\Seen \\*)] Flags permitted.");
  CHECK(flags.code == "PERMANENTFLAGS (\\Answered \\Seen \\*)");

  auto bye = parsed("* BYE Logging out");
  CHECK(bye.status == "BYE");
  CHECK(bye.text == "Logging out");

  auto more = parsed("+ OK");
  CHECK(more.tag == "+");
  CHECK(more.text == "OK");
}

TEST_CASE("untagged data: numbers, names, flags, quoted strings, NIL and sections") {
  auto search = parsed("* SEARCH 3 5 12");
  CHECK(search.name == "SEARCH");
  CHECK_FALSE(search.number.has_value());
  REQUIRE(search.data.size() == 3);
  CHECK(search.data[2].number() == 12u);

  auto empty_search = parsed("* SEARCH");
  CHECK(empty_search.name == "SEARCH");
  CHECK(empty_search.data.empty());

  auto expunge = parsed("* 4 EXPUNGE");
  CHECK(expunge.number == 4u);
  CHECK(expunge.name == "EXPUNGE");

  auto fetch = parsed(
      "* 12 FETCH (UID 40 FLAGS (\\Seen $Forwarded) RFC822.SIZE 2048 INTERNALDATE \"24-Nov-2025 09:00:00 "
      "+0100\" BODY[HEADER.FIELDS (FROM TO SUBJECT DATE)] {10}\r\nSubject: x ENVELOPE (NIL \"a \\\"q\\\" "
      "\\\\b\"))");
  CHECK(native::imap::fetch_item(fetch, "UID")->number() == 40u);
  const ImapValue* flags = native::imap::fetch_item(fetch, "FLAGS");
  REQUIRE(flags != nullptr);
  REQUIRE(flags->items.size() == 2);
  CHECK(flags->items[0].text == "\\Seen");
  CHECK(native::imap::fetch_item(fetch, "INTERNALDATE")->text == "24-Nov-2025 09:00:00 +0100");
  const ImapValue* headers = native::imap::fetch_item_prefix(fetch, "BODY[HEADER.FIELDS");
  REQUIRE(headers != nullptr);
  CHECK(headers->text == "Subject: x");
  const ImapValue* envelope = native::imap::fetch_item(fetch, "ENVELOPE");
  REQUIRE(envelope != nullptr);
  REQUIRE(envelope->items.size() == 2);
  CHECK(envelope->items[0].kind == ImapValue::Kind::nil);
  CHECK(envelope->items[1].text == "a \"q\" \\b");
  CHECK(native::imap::fetch_item(fetch, "BODY[]") == nullptr);
}

TEST_CASE("malformed responses are imap_error") {
  for (std::string bad : {"", "p1", "p1 FETCH (UID 1)", "* 1 FETCH (UID 1", "* 1 FETCH (BODY[HEADER (UID 1)",
                          "* 1 FETCH (X \"open)", "* 1 FETCH (BODY[] {10}\r\nshort)", "* 1 FETCH (X ))"}) {
    CAPTURE(bad);
    auto response = parse_response(bad);
    REQUIRE_FALSE(response.ok());
    CHECK(response.error().code == "imap_error");
  }
}

TEST_CASE("numbers are unsigned 32-bit atoms") {
  CHECK(ImapValue{ImapValue::Kind::atom, "4294967295", {}}.number() == 4294967295u);
  CHECK_FALSE(ImapValue{ImapValue::Kind::atom, "4294967296", {}}.number().has_value());
  CHECK_FALSE(ImapValue{ImapValue::Kind::atom, "-1", {}}.number().has_value());
  CHECK_FALSE(ImapValue{ImapValue::Kind::atom, "12a", {}}.number().has_value());
  CHECK_FALSE(ImapValue{ImapValue::Kind::string, "12", {}}.number().has_value());
}
