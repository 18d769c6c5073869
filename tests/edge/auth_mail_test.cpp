// Verify-email and password-reset mails of auth projects, delivered by the mail product's worker to a real
// SMTP server (python3-aiosmtpd) and their links followed: the link points at the project's allowed URL,
// works once, expires; a reset never reveals whether the email exists and revokes every session.

#include <doctest/doctest.h>

#include <regex>

#include "../native/smtp_sink.h"
#include "auth_support.h"
#include "mail_support.h"
#include "native/mail/mime_parse.h"

using testing::TestEdge;
using namespace auth_test;

TEST_SUITE_BEGIN("auth_mail");

namespace {

struct MailEdge {
  std::unique_ptr<test_smtp::SmtpSink> sink;
  std::unique_ptr<TestEdge> edge;
  TestProject project;

  MailEdge() {
    std::string failure;
    sink = test_smtp::SmtpSink::start({}, failure);
    REQUIRE_MESSAGE(sink, failure);
    edge::Config c;
    c.rate_limit = {1'000'000, 1000};
    c.mail.relay = "127.0.0.1:" + std::to_string(sink->port());
    c.mail.delivery_workers = 1;
    c.mail.smtp_timeout_ms = 10'000;
    edge = std::make_unique<TestEdge>(c);
    const std::string mail_token = edge->token_with("acme", mail_test::kAllMail);
    const std::string domain = mail_test::verified_domain(*edge, mail_token, "acme", "acme.example.test");
    project = make_project(
        *edge, "mailapp",
        R"("allowedRedirectUrls":["https://app.example.com/auth/confirm","https://app.example.com/auth/reset?src=mail"],)"
        R"("mail":{"domainId":")" +
            domain + R"(","from":"no-reply@acme.example.test","fromName":"Acme App"})");
  }

  // The parsed message `n` (0-based) once it has arrived.
  native::mail::ParsedMessage message(std::size_t n) {
    auto got = sink->wait_for(n + 1, std::chrono::seconds(20));
    REQUIRE(got.size() > n);
    auto parsed = native::mail::parse_mime(got[n].data);
    REQUIRE(parsed.ok());
    return *parsed;
  }
};

// The single link of a text body.
std::string link_in(const std::string& text) {
  std::smatch m;
  REQUIRE(std::regex_search(text, m, std::regex(R"(https://\S+)")));
  return m.str(0);
}

std::string token_of(const std::string& link) {
  std::smatch m;
  REQUIRE(std::regex_search(link, m, std::regex(R"(token=(apl_[A-Za-z0-9_-]+))")));
  return m.str(1);
}

}  // namespace

TEST_CASE("signup sends a verification mail whose link confirms the address once") {
  MailEdge m;
  auto up = signup(*m.edge, m.project, "veli@example.net");
  REQUIRE(up.status == 201);
  auto mail = m.message(0);
  CHECK(mail.subject == "Confirm your email for App mailapp");
  CHECK(mail.from == "Acme App <no-reply@acme.example.test>");
  CHECK(mail.to == "veli@example.net");
  const std::string link = link_in(mail.text);
  CHECK(link.rfind("https://app.example.com/auth/confirm?token=apl_", 0) == 0);
  CHECK(link.find("&type=verify_email") != std::string::npos);
  CHECK(mail.html.find("href=\"https://app.example.com/auth/confirm?token=") != std::string::npos);

  auto verified = call(*m.edge, m.project, "/verify-email", R"({"token":")" + token_of(link) + R"("})");
  REQUIRE(verified.status == 200);
  CHECK(verified.data().as_object().at("user").as_object().at("emailVerified").as_bool());
  auto again = call(*m.edge, m.project, "/verify-email", R"({"token":")" + token_of(link) + R"("})");
  CHECK(again.status == 400);
  CHECK(again.error() == "the verification link is invalid, expired or already used");
  // The mail went through the mail product: its log lists it as delivered.
  auto logs = m.edge->get("/api/companies/acme/logs", m.edge->token_with("acme", {"logs.view"}));
  REQUIRE(logs.status == 200);
  CHECK(logs.body.find("veli@example.net") != std::string::npos);
}

TEST_CASE("a verification link expires after 24 hours; request sends a fresh one in Turkish") {
  MailEdge m;
  REQUIRE(signup(*m.edge, m.project, "ayse@example.net").status == 201);
  const std::string first = token_of(link_in(m.message(0).text));
  m.edge->clock.advance_ms(24 * 3600 * 1000);
  CHECK(call(*m.edge, m.project, "/verify-email", R"({"token":")" + first + R"("})").status == 400);
  auto requested =
      call(*m.edge, m.project, "/verify-email/request", R"({"email":"ayse@example.net","locale":"tr"})");
  CHECK(requested.status == 202);
  auto mail = m.message(1);
  CHECK(mail.subject == "App mailapp için e-posta adresinizi doğrulayın");
  CHECK(call(*m.edge, m.project, "/verify-email", R"({"token":")" + token_of(link_in(mail.text)) + R"("})")
            .status == 200);
}

TEST_CASE("password reset: the same answer for unknown emails, the link works once, sessions end") {
  MailEdge m;
  auto up = signup(*m.edge, m.project, "reset@example.net");
  REQUIRE(up.status == 201);
  m.message(0);  // the verification mail
  const std::string old_access = str(up.data(), "accessToken");

  auto unknown = call(*m.edge, m.project, "/password-reset/request", R"({"email":"nobody@example.net"})");
  auto known =
      call(*m.edge, m.project, "/password-reset/request",
           R"({"email":"Reset@Example.net","redirectUrl":"https://app.example.com/auth/reset?src=mail"})");
  CHECK(unknown.status == 202);
  CHECK(known.status == 202);
  CHECK(unknown.body == known.body);
  auto mail = m.message(1);
  CHECK(mail.subject == "Reset your password for App mailapp");
  const std::string link = link_in(mail.text);
  CHECK(link.rfind("https://app.example.com/auth/reset?src=mail&token=apl_", 0) == 0);
  CHECK(link.find("&type=password_reset") != std::string::npos);
  // No second mail arrives for the unknown address.
  CHECK(m.sink->wait_for(3, std::chrono::milliseconds(1500)).size() == 2);

  auto bad_redirect = call(*m.edge, m.project, "/password-reset/request",
                           R"({"email":"reset@example.net","redirectUrl":"https://evil.example.com/"})");
  CHECK(bad_redirect.status == 400);
  CHECK(bad_redirect.error() == "redirectUrl is not one of the project's allowed redirect URLs");

  const std::string token = token_of(link);
  auto weak = call(*m.edge, m.project, "/password-reset/confirm",
                   R"({"token":")" + token + R"(","password":"short"})");
  CHECK(weak.status == 400);
  CHECK(weak.error() == "the password needs at least 8 characters");
  auto done = call(*m.edge, m.project, "/password-reset/confirm",
                   R"({"token":")" + token + R"(","password":"a brand new secret"})");
  REQUIRE(done.status == 200);
  CHECK(done.data().as_object().at("sessionsRevoked").as_int64() == 1);
  CHECK(m.edge->get(m.project.base + "/userinfo", old_access).status == 401);
  auto reused = call(*m.edge, m.project, "/password-reset/confirm",
                     R"({"token":")" + token + R"(","password":"another new secret"})");
  CHECK(reused.status == 400);
  CHECK(reused.error() == "the reset link is invalid, expired or already used");
  CHECK(call(*m.edge, m.project, "/login",
             R"({"email":"reset@example.net","password":"correct horse battery"})")
            .status == 401);
  CHECK(call(*m.edge, m.project, "/login", R"({"email":"reset@example.net","password":"a brand new secret"})")
            .status == 200);
}

TEST_CASE("a reset link expires after an hour; a project without a sender answers 422") {
  MailEdge m;
  REQUIRE(signup(*m.edge, m.project, "late@example.net").status == 201);
  REQUIRE(call(*m.edge, m.project, "/password-reset/request", R"({"email":"late@example.net"})").status ==
          202);
  const std::string token = token_of(link_in(m.message(1).text));
  m.edge->clock.advance_ms(3600 * 1000);
  CHECK(call(*m.edge, m.project, "/password-reset/confirm",
             R"({"token":")" + token + R"(","password":"new secret 123"})")
            .status == 400);

  TestProject bare =
      make_project(*m.edge, "nosender", R"("allowedRedirectUrls":["https://app.example.com/x"])");
  auto refused = call(*m.edge, bare, "/password-reset/request", R"({"email":"late@example.net"})");
  CHECK(refused.status == 422);
  CHECK(refused.error() ==
        "the project has no mail sender; set 'mail' (a verified domain and a from address)");
}

TEST_SUITE_END();
