#include <doctest/doctest.h>

#include "core/auth/link_mail.h"

using namespace core::auth;

TEST_CASE("auth link mails: locale, link and escaping") {
  auto en = render_link_mail(LinkPurpose::password_reset, "", "Shop & Co", "https://a.test/r?x=1&token=t");
  REQUIRE(en.ok());
  CHECK(en->subject == "Reset your password for Shop & Co");
  CHECK(en->html.find("<strong>Shop &amp; Co</strong>") != std::string::npos);
  CHECK(en->html.find("href=\"https://a.test/r?x=1&amp;token=t\"") != std::string::npos);
  CHECK(en->text.find("\n\nhttps://a.test/r?x=1&token=t\n\n") != std::string::npos);
  CHECK(en->text.find("for 1 hour.") != std::string::npos);
  auto tr = render_link_mail(LinkPurpose::verify_email, "tr", "Dükkan", "https://a.test/v");
  REQUIRE(tr.ok());
  CHECK(tr->subject == "Dükkan için e-posta adresinizi doğrulayın");
  CHECK(tr->text.find("24 saat") != std::string::npos);
  auto verify_en = render_link_mail(LinkPurpose::verify_email, "de", "Shop", "https://a.test/v");
  CHECK(verify_en->subject == "Confirm your email for Shop");
}

TEST_CASE("auth link URLs keep the allowed URL's query and add token and type") {
  CHECK(link_url("https://a.test/confirm", "apl_x", LinkPurpose::verify_email) ==
        "https://a.test/confirm?token=apl_x&type=verify_email");
  CHECK(link_url("https://a.test/reset?src=mail", "apl_y", LinkPurpose::password_reset) ==
        "https://a.test/reset?src=mail&token=apl_y&type=password_reset");
  CHECK(parse_link_purpose("password_reset").value() == LinkPurpose::password_reset);
  CHECK(!parse_link_purpose("other").ok());
}
