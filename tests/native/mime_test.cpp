// Outgoing messages built with GMime (build_mime) and read back (parse_mime): the MIME shape of each kind
// of message, RFC 5322 framing (CRLF only, short lines, encoded non-ASCII headers), byte-exact
// attachments, the fields refused, and messages written by other mailers.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "native/mail/mime_message.h"
#include "native/mail/mime_parse.h"
#include "tests/native/mail_test_util.h"

using mail_test::header_field;
using native::mail::OutgoingMessage;
using native::mail::ParsedMessage;

namespace {

std::string build(const OutgoingMessage& message) {
  auto built = native::mail::build_mime(message);
  REQUIRE_MESSAGE(built.ok(), built.error().code, ": ", built.error().message);
  return std::move(*built);
}

ParsedMessage parse(std::string_view raw) {
  auto parsed = native::mail::parse_mime(raw);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error().message);
  return std::move(*parsed);
}

// RFC 5322 framing every built message keeps.
void check_framing(const std::string& bytes) {
  CHECK(mail_test::crlf_only(bytes));
  CHECK(bytes.ends_with("\r\n"));
  CHECK(mail_test::longest_line(bytes) <= 998);
  const auto headers = mail_test::header_block(bytes);
  CHECK(std::all_of(headers.begin(), headers.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x80; }));
  CHECK(header_field(bytes, "MIME-Version") == "1.0");
  CHECK(header_field(bytes, "Date") == "Tue, 14 Nov 2023 22:13:20 +0000");
}

// Every byte value, then line-break and dot sequences that a text transfer would alter.
std::string all_bytes() {
  using namespace std::string_literals;
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  return bytes + "\r\n\n\r.\r\n..\r\nFrom \x00\xff"s;
}

}  // namespace

TEST_SUITE("mime") {
  TEST_CASE("text only: a single text/plain part in UTF-8 that reads back with its headers") {
    OutgoingMessage m = mail_test::sample_message();
    m.html.clear();
    const std::string bytes = build(m);
    check_framing(bytes);
    CHECK(header_field(bytes, "Content-Type") == "text/plain; charset=utf-8");
    CHECK(header_field(bytes, "Message-ID") == "<ml_01hf3k2v9q@example.test>");
    CHECK(header_field(bytes, "X-Mail-Log-Id") == "ml_01hf3k2v9q");

    const ParsedMessage parsed = parse(bytes);
    CHECK(parsed.text == m.text);
    CHECK(parsed.html.empty());
    CHECK(parsed.attachments.empty());
    CHECK(parsed.message_id == "ml_01hf3k2v9q@example.test");
    CHECK(parsed.date_iso == "2023-11-14T22:13:20.000Z");
  }

  TEST_CASE("html only: a single text/html part") {
    OutgoingMessage m = mail_test::sample_message();
    m.text.clear();
    const std::string bytes = build(m);
    check_framing(bytes);
    CHECK(header_field(bytes, "Content-Type") == "text/html; charset=utf-8");
    const ParsedMessage parsed = parse(bytes);
    CHECK(parsed.html == m.html);
    CHECK(parsed.text.empty());
    CHECK(parsed.attachments.empty());
  }

  TEST_CASE("text and html: multipart/alternative with the text first") {
    const OutgoingMessage m = mail_test::sample_message();
    const std::string bytes = build(m);
    check_framing(bytes);
    CHECK(header_field(bytes, "Content-Type")->starts_with("multipart/alternative; boundary="));
    CHECK(bytes.find("text/plain") < bytes.find("text/html"));
    const ParsedMessage parsed = parse(bytes);
    CHECK(parsed.text == m.text);
    CHECK(parsed.html == m.html);
    CHECK(parsed.attachments.empty());
  }

  TEST_CASE("attachments: multipart/mixed, body first, every byte back exactly") {
    OutgoingMessage m = mail_test::sample_message();
    const std::string binary = all_bytes();
    const std::string csv = "id;name\n1;Zoë\n";  // LF line ends that must stay LF
    m.attachments = {{"report.bin", "application/octet-stream", binary},
                     {"Zoë – résumé.csv", "text/csv; charset=utf-8", csv},
                     {"", "", "no name, no type"}};
    const std::string bytes = build(m);
    check_framing(bytes);
    CHECK(header_field(bytes, "Content-Type")->starts_with("multipart/mixed; boundary="));
    CHECK(bytes.find("multipart/alternative") < bytes.find("application/octet-stream"));
    CHECK(bytes.find("filename*=UTF-8''Zo%C3%AB%20%E2%80%93%20r%C3%A9sum%C3%A9.csv") != std::string::npos);

    const ParsedMessage parsed = parse(bytes);
    CHECK(parsed.text == m.text);
    CHECK(parsed.html == m.html);
    REQUIRE(parsed.attachments.size() == 3);
    CHECK(parsed.attachments[0].filename == "report.bin");
    CHECK(parsed.attachments[0].content_type == "application/octet-stream");
    CHECK(parsed.attachments[0].disposition == "attachment");
    CHECK(parsed.attachments[0].content == binary);
    CHECK(parsed.attachments[0].size == binary.size());
    CHECK(parsed.attachments[0].text.empty());
    CHECK(parsed.attachments[1].filename == "Zoë – résumé.csv");
    CHECK(parsed.attachments[1].content_type == "text/csv");
    CHECK(parsed.attachments[1].content == csv);
    CHECK(parsed.attachments[1].text == csv);
    CHECK(parsed.attachments[2].filename.empty());
    CHECK(parsed.attachments[2].content_type == "application/octet-stream");
    CHECK(parsed.attachments[2].content == "no name, no type");
  }

  TEST_CASE("UTF-8 subject, display names and header values: RFC 2047 on the wire, UTF-8 when read") {
    OutgoingMessage m = mail_test::sample_message();
    m.headers.push_back({"X-Campaign", "Été 2024"});
    const std::string bytes = build(m);
    check_framing(bytes);  // includes: the header block is ASCII
    CHECK(header_field(bytes, "Subject")->find("=?UTF-8?") != std::string::npos);
    CHECK(header_field(bytes, "From")->ends_with("<noreply@example.test>"));
    CHECK(header_field(bytes, "X-Campaign")->find("=?UTF-8?") != std::string::npos);

    const ParsedMessage parsed = parse(bytes);
    CHECK(parsed.subject == m.subject);
    CHECK(parsed.from == "Acme Störe <noreply@example.test>");
    CHECK(parsed.to == "Zoë Adams <zoe@dest.test>, bob@dest.test");
    CHECK(parsed.reply_to == "Support <help@example.test>");
    CHECK(parsed.cc.empty());
  }

  TEST_CASE("line breaks of every style become CRLF; long lines are encoded within the limit") {
    OutgoingMessage m = mail_test::sample_message();
    const std::string long_line(3000, 'x');
    m.text = "crlf\r\nlf\ncr\rlast without a break";
    m.html = "<p>" + long_line + "</p>";
    const std::string bytes = build(m);
    check_framing(bytes);
    CHECK(mail_test::longest_line(bytes) <= 78);  // quoted-printable and base64 lines are short

    const ParsedMessage parsed = parse(bytes);
    CHECK(parsed.text == "crlf\nlf\ncr\nlast without a break\n");  // a final break is added
    CHECK(parsed.html == "<p>" + long_line + "</p>\n");
  }

  TEST_CASE("extra headers keep their order; the builder's own fields and malformed ones are refused") {
    OutgoingMessage m = mail_test::sample_message();
    m.headers = {{"X-First", "1"}, {"List-Unsubscribe", "<mailto:u@example.test>"}, {"X-Last", "3"}};
    const std::string bytes = build(m);
    CHECK(bytes.find("X-First: 1\r\n") < bytes.find("List-Unsubscribe: <mailto:u@example.test>\r\n"));
    CHECK(bytes.find("List-Unsubscribe") < bytes.find("X-Last: 3\r\n"));

    for (const char* name : {"from", "To", "Message-Id", "DKIM-Signature", "Content-Type",
                             "content-transfer-encoding", "MIME-Version", "Bcc"}) {
      CAPTURE(name);
      m.headers = {{name, "x"}};
      auto built = native::mail::build_mime(m);
      REQUIRE_FALSE(built.ok());
      CHECK(built.error().code == "invalid_message");
    }
    for (const char* name : {"", "X Space", "X:Colon", "X-\xc3\xa9"}) {
      CAPTURE(name);
      m.headers = {{name, "x"}};
      CHECK(native::mail::build_mime(m).error().code == "invalid_message");
    }
    m.headers = {{"X-Injected", "a\r\nBcc: victim@dest.test"}};
    CHECK(native::mail::build_mime(m).error().code == "invalid_message");
  }

  TEST_CASE("invalid messages are refused with invalid_message naming the field") {
    struct Case {
      const char* what;
      void (*change)(OutgoingMessage&);
      const char* field;
    };
    const Case cases[] = {
        {"no from", [](OutgoingMessage& m) { m.from.clear(); }, "from"},
        {"two senders", [](OutgoingMessage& m) { m.from = "a@example.test, b@example.test"; }, "from"},
        {"a group", [](OutgoingMessage& m) { m.from = "Team: a@example.test;"; }, "from"},
        {"no domain", [](OutgoingMessage& m) { m.from = "Name <local>"; }, "from"},
        {"non-ASCII address", [](OutgoingMessage& m) { m.to = {"zoë@dest.test"}; }, "to[0]"},
        {"no recipient", [](OutgoingMessage& m) { m.to.clear(); }, "to"},
        {"bad second recipient", [](OutgoingMessage& m) { m.to.push_back("not an address"); }, "to[2]"},
        {"bad reply-to", [](OutgoingMessage& m) { m.reply_to = "@@"; }, "reply_to"},
        {"CRLF in the subject", [](OutgoingMessage& m) { m.subject = "Hi\r\nBcc: x@dest.test"; }, "subject"},
        {"LF in a display name", [](OutgoingMessage& m) { m.from = "A\nB <a@example.test>"; }, "from"},
        {"no body",
         [](OutgoingMessage& m) {
           m.text.clear();
           m.html.clear();
         },
         "text or html"},
        {"message id in brackets", [](OutgoingMessage& m) { m.message_id = "<a@example.test>"; },
         "message_id"},
        {"message id without @", [](OutgoingMessage& m) { m.message_id = "abc"; }, "message_id"},
        {"message id with space", [](OutgoingMessage& m) { m.message_id = "a b@example.test"; },
         "message_id"},
        {"no date", [](OutgoingMessage& m) { m.date_ms = 0; }, "date_ms"},
        {"attachment type",
         [](OutgoingMessage& m) {
           m.attachments = {{"a", "nonsense", "x"}};
         },
         "attachments[0]"},
        {"multipart attachment",
         [](OutgoingMessage& m) {
           m.attachments = {{"a", "multipart/mixed", "x"}};
         },
         "attachments[0]"},
        {"CR in a filename",
         [](OutgoingMessage& m) {
           m.attachments = {{"a\r.txt", "text/plain", "x"}};
         },
         "attachments[0]"},
    };
    for (const auto& c : cases) {
      CAPTURE(c.what);
      OutgoingMessage m = mail_test::sample_message();
      c.change(m);
      auto built = native::mail::build_mime(m);
      REQUIRE_FALSE(built.ok());
      CHECK(built.error().code == "invalid_message");
      CHECK(built.error().message.find(c.field) != std::string::npos);
    }
  }

  TEST_CASE("parse: a message written by another mailer, decoded to UTF-8") {
    const std::string raw =
        "Return-Path: <x@other.test>\r\n"
        "From: =?ISO-8859-1?Q?J=FCrgen_M=FCller?= <j@other.test>\r\n"
        "To: \"Support, Acme\" <help@example.test>\r\n"
        "Cc: =?UTF-8?B?Wm/Dqw==?= <zoe@dest.test>, bob@dest.test\r\n"
        "Subject: =?utf-8?q?R=C3=BCckfrage?= zu\r\n =?utf-8?b?ZGVpbmVyIEJlc3RlbGx1bmc=?=\r\n"
        "Date: Wed, 15 Nov 2023 09:30:00 +0100\r\n"
        "Message-ID: <abc.123@other.test>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: multipart/mixed; boundary=\"outer\"\r\n"
        "\r\n"
        "preamble\r\n"
        "--outer\r\n"
        "Content-Type: multipart/related; boundary=\"inner\"\r\n"
        "\r\n"
        "--inner\r\n"
        "Content-Type: text/html; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n"
        "\r\n"
        "<p>Gr=FC=DFe <img src=3D\"cid:logo@x\"></p>\r\n"
        "--inner\r\n"
        "Content-Type: image/png\r\n"
        "Content-ID: <logo@x>\r\n"
        "Content-Disposition: inline\r\n"
        "Content-Transfer-Encoding: base64\r\n"
        "\r\n"
        "iVBORw0KGgo=\r\n"
        "--inner--\r\n"
        "--outer\r\n"
        "Content-Type: text/plain; charset=\"windows-1252\"\r\n"
        "Content-Transfer-Encoding: 8bit\r\n"
        "\r\n"
        "Preis: 5 \x80\r\nDanke\r\n"
        "--outer\r\n"
        "Content-Type: application/pdf; name=\"=?UTF-8?B?UmVjaG51bmfDpC5wZGY=?=\"\r\n"
        "Content-Disposition: attachment; filename*=UTF-8''Rechnung%C3%A4.pdf\r\n"
        "Content-Transfer-Encoding: base64\r\n"
        "\r\n"
        "JVBERi0xLjQK\r\n"
        "--outer\r\n"
        "Content-Type: message/rfc822\r\n"
        "\r\n"
        "From: a@b.test\r\nSubject: inner\r\n\r\ninner body\r\n"
        "--outer--\r\n";
    const ParsedMessage parsed = parse(raw);
    CHECK(parsed.from == "Jürgen Müller <j@other.test>");
    CHECK(parsed.to == "\"Support, Acme\" <help@example.test>");
    CHECK(parsed.cc == "Zoë <zoe@dest.test>, bob@dest.test");
    CHECK(parsed.subject == "Rückfrage zu deiner Bestellung");
    CHECK(parsed.date_iso == "2023-11-15T08:30:00.000Z");
    CHECK(parsed.message_id == "abc.123@other.test");
    // The CRLF before a boundary belongs to the boundary (RFC 2046 §5.1.1).
    CHECK(parsed.html == "<p>Grüße <img src=\"cid:logo@x\"></p>");
    CHECK(parsed.text == "Preis: 5 €\nDanke");
    REQUIRE(parsed.attachments.size() == 3);
    CHECK(parsed.attachments[0].content_type == "image/png");
    CHECK(parsed.attachments[0].disposition == "inline");
    CHECK(parsed.attachments[0].content_id == "logo@x");
    CHECK(parsed.attachments[0].content == std::string("\x89PNG\r\n\x1a\n", 8));
    CHECK(parsed.attachments[0].size == 8);
    CHECK(parsed.attachments[1].content_type == "application/pdf");
    CHECK(parsed.attachments[1].filename == "Rechnungä.pdf");
    CHECK(parsed.attachments[1].content == "%PDF-1.4\n");
    CHECK(parsed.attachments[2].content_type == "message/rfc822");
    CHECK(parsed.attachments[2].content.find("Subject: inner") != std::string::npos);
    CHECK(parsed.attachments[2].content.find("inner body") != std::string::npos);
  }

  TEST_CASE("parse: undeclared 8-bit text is read as UTF-8 when it is, else as windows-1252") {
    const ParsedMessage utf8 = parse(
        "Subject: Gr\xc3\xbc\xc3\x9f"
        "e\r\n\r\nZo\xc3\xab\r\n");
    CHECK(utf8.subject == "Grüße");
    CHECK(utf8.text == "Zoë\n");
    const ParsedMessage latin = parse(
        "Subject: Gr\xfc\xdf"
        "e\r\n\r\nZo\xeb\r\n");
    CHECK(latin.subject == "Grüße");
    CHECK(latin.text == "Zoë\n");
  }

  TEST_CASE("building and parsing on several threads at once: each thread gets its own message back") {
    constexpr int kThreads = 4, kEach = 25;
    std::vector<int> matches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([t, &matches] {
        for (int i = 0; i < kEach; ++i) {
          OutgoingMessage m = mail_test::sample_message();
          m.subject = "Thread " + std::to_string(t) + " — message " + std::to_string(i);
          m.attachments = {
              {"z.bin", "application/octet-stream", std::string(1000 + i, static_cast<char>(t))}};
          auto bytes = native::mail::build_mime(m);
          auto parsed =
              bytes.ok() ? native::mail::parse_mime(*bytes) : core::Result<ParsedMessage>(bytes.error());
          if (parsed.ok() && parsed->subject == m.subject && parsed->text == m.text &&
              parsed->attachments.size() == 1 && parsed->attachments[0].content == m.attachments[0].content)
            ++matches[t];
        }
      });
    }
    for (auto& thread : threads) thread.join();
    CHECK(matches == std::vector<int>(kThreads, kEach));
  }

  TEST_CASE("parse: input without a header block is invalid_message") {
    for (std::string_view raw : {std::string_view(""), std::string_view("\r\n\r\njust a body")}) {
      CAPTURE(raw);
      auto parsed = native::mail::parse_mime(raw);
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.error().code == "invalid_message");
    }
  }
}
