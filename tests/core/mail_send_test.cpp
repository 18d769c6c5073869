// POST /send bodies (spec document 2, "Mail: send"): raw and template modes, recipients as a string or an
// array, reply-to, attachments and their 25 MB cap, scheduledAt; and the from-domain rule.

#include <doctest/doctest.h>

#include "core/bytes.h"
#include "core/date.h"
#include "core/json.h"
#include "core/mail/delivery.h"
#include "core/mail/send_request.h"

using namespace core::mail;

namespace {

constexpr std::int64_t kNow = 1'795'000'000'000;  // 2026-11-18

core::Result<SendRequest> parse(std::string_view json) {
  auto body = core::parse_json_object(json);
  REQUIRE(body.ok());
  return parse_send_request(*body, kNow);
}

std::string error_code(std::string_view json) {
  auto r = parse(json);
  REQUIRE_FALSE(r.ok());
  return r.error().code;
}

}  // namespace

TEST_CASE("a raw send with one recipient as a string") {
  auto r = parse(R"({"domainId":"dom_1","from":"Acme <hello@Acme.COM>","to":"Ali@Example.COM",
                     "subject":"Hi","html":"<p>x</p>","text":"x","replyTo":"help@acme.com"})");
  REQUIRE(r.ok());
  CHECK(r->from.display_name == "Acme");
  CHECK(r->from.address == "hello@acme.com");
  CHECK(r->from.domain() == "acme.com");
  REQUIRE(r->to.size() == 1);
  CHECK(r->to[0] == "Ali@example.com");  // the local part is the receiver's; the domain has no case
  CHECK(r->reply_to->address == "help@acme.com");
  CHECK_FALSE(r->template_id.has_value());
  CHECK(r->subject == "Hi");
  CHECK_FALSE(r->scheduled_at_ms.has_value());
}

TEST_CASE("recipients as an array keep their order and lose repeats") {
  auto r = parse(R"({"domainId":"d","from":"a@acme.com","to":["b@x.test","c@x.test","b@X.TEST"],
                     "subject":"s","text":"t"})");
  REQUIRE(r.ok());
  CHECK(r->to == std::vector<std::string>{"b@x.test", "c@x.test"});
}

TEST_CASE("template mode takes variables and a locale, and refuses raw content beside it") {
  auto r = parse(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","templateId":"tpl_1",
                     "variables":{"name":"Ali","items":[{"n":1}]},"locale":"tr"})");
  REQUIRE(r.ok());
  CHECK(*r->template_id == "tpl_1");
  CHECK(r->locale == "tr");
  CHECK(r->variables.at("name").as_string() == "Ali");
  CHECK(
      error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","templateId":"t","subject":"s"})") ==
      "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","variables":{}})") ==
        "invalid_field");
}

TEST_CASE("missing or mistyped fields are refused with the field named") {
  CHECK(error_code(R"({"from":"a@acme.com","to":"b@x.test","subject":"s","text":"t"})") == "missing_field");
  CHECK(error_code(R"({"domainId":"d","to":"b@x.test","subject":"s","text":"t"})") == "missing_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","subject":"s","text":"t"})") == "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":[],"subject":"s","text":"t"})") ==
        "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":5,"subject":"s","text":"t"})") ==
        "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","text":"t"})") == "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s"})") ==
        "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"not an address","to":"b@x.test","subject":"s","text":"t"})") ==
        "invalid_email");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@","subject":"s","text":"t"})") ==
        "invalid_email");
  CHECK(
      error_code(
          R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"a\r\nBcc: x@y.z","text":"t"})") ==
      "invalid_field");
  auto r = parse(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s"})");
  CHECK(r.error().message.find("'html' or 'text'") != std::string::npos);
}

TEST_CASE("a display name cannot smuggle header lines") {
  CHECK_FALSE(parse_mail_address("Evil\r\nBcc: x@y.z <a@acme.com>").ok());
  CHECK(parse_mail_address("\"Acme Support\" <help@acme.com>")->display_name == "Acme Support");
  CHECK(parse_mail_address("  help@acme.com ")->address == "help@acme.com");
}

TEST_CASE("no more than 50 recipients") {
  std::string to;
  for (int i = 0; i < 51; ++i) to += (i ? "," : "") + std::string("\"u") + std::to_string(i) + "@x.test\"";
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","subject":"s","text":"t","to":[)" + to + "]}") ==
        "invalid_field");
}

TEST_CASE("attachments are decoded from base64 and capped at 25 MB") {
  auto r = parse(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t",
                     "attachments":[{"filename":"a.pdf","contentType":"application/pdf","content":"JVBERi0="},
                                    {"filename":"b.bin","content":"AAEC"}]})");
  REQUIRE(r.ok());
  REQUIRE(r->attachments.size() == 2);
  CHECK(r->attachments[0].content == "%PDF-");
  CHECK(r->attachments[1].content_type == "application/octet-stream");
  CHECK(r->attachments[1].content == std::string("\0\1\2", 3));
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t",
                       "attachments":[{"filename":"a","content":"not base64!"}]})") == "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t",
                       "attachments":[{"content":"AAEC"}]})") == "invalid_field");

  const std::string half = core::base64_encode(core::as_bytes(std::string(kMaxAttachmentBytes / 2, 'x')));
  const std::string two = R"({"filename":"a","content":")" + half + R"("})";
  CHECK(
      parse(
          R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t","attachments":[)" +
          two + "," + two + "]}")
          .ok());  // exactly 25 MB
  const std::string more = R"({"filename":"c","content":"AA=="})";
  CHECK(
      error_code(
          R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t","attachments":[)" +
          two + "," + two + "," + more + "]}") == "payload_too_large");
}

TEST_CASE("scheduledAt: a timestamp up to 30 days ahead; the past means now") {
  auto r = parse(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t",
                     "scheduledAt":"2026-11-20T10:00:00.000Z"})");
  REQUIRE(r.ok());
  CHECK(*r->scheduled_at_ms == core::parse_timestamp("2026-11-20T10:00:00.000Z").value());
  auto past = parse(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t",
                        "scheduledAt":"2020-01-01T00:00:00.000Z"})");
  CHECK(*past->scheduled_at_ms == kNow);
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t",
                       "scheduledAt":"2027-02-01T00:00:00.000Z"})") == "invalid_field");
  CHECK(error_code(R"({"domainId":"d","from":"a@acme.com","to":"b@x.test","subject":"s","text":"t",
                       "scheduledAt":"tomorrow"})") == "invalid_field");
}

TEST_CASE("from must be on the sending domain itself") {
  CHECK(check_from_domain(parse_mail_address("a@acme.com").value(), "acme.com").ok());
  auto sub = check_from_domain(parse_mail_address("a@mail.acme.com").value(), "acme.com");
  CHECK(sub.error().code == "unprocessable");
  CHECK_FALSE(check_from_domain(parse_mail_address("a@evilacme.com").value(), "acme.com").ok());
}

TEST_CASE("a mail log's status follows its recipients") {
  using S = RecipientStatus;
  auto status = [](std::initializer_list<S> l) { return log_status(std::vector<S>(l)); };
  CHECK(status({S::queued, S::delivered}) == S::queued);
  CHECK(status({S::deferred, S::delivered}) == S::deferred);
  CHECK(status({S::queued, S::deferred}) == S::deferred);
  CHECK(status({S::delivered, S::bounced}) == S::bounced);
  CHECK(status({S::delivered, S::suppressed}) == S::delivered);
  CHECK(status({S::suppressed, S::suppressed}) == S::suppressed);
  for (S s : {S::queued, S::deferred, S::delivered, S::bounced, S::suppressed})
    CHECK(parse_recipient_status(to_string(s)) == s);
  CHECK_FALSE(parse_recipient_status("sent").has_value());
}

TEST_CASE("retries follow the schedule, then stop") {
  RetrySchedule s{{1000, 5000}};
  CHECK(next_retry_delay(s, 1) == 1000);
  CHECK(next_retry_delay(s, 2) == 5000);
  CHECK_FALSE(next_retry_delay(s, 3).has_value());
  CHECK_FALSE(next_retry_delay(s, 0).has_value());
  std::int64_t total = 0;
  for (auto d : RetrySchedule{}.delays_ms) total += d;
  CHECK(total >= 20LL * 3600 * 1000);  // the default keeps trying for about a day
  CHECK(total <= 30LL * 3600 * 1000);
}
