// Sending domains (spec document 2, Mail: domains; spec/DECISIONS.md "Domain state"): the names POST
// /domains accepts, the records it returns, the checks of a verify call and the state they lead to.

#include <doctest/doctest.h>

#include "core/mail/domain_name.h"
#include "core/mail/domain_records.h"

using namespace core::mail;

namespace {

const MailDnsSetup kSetup{"spf.mail.platform.test", "dkim.mail.platform.test", "mx.mail.platform.test"};
const SendingDomain kDomain{"acme.com", "k7q2", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx"};

// Lookups that answer exactly what domain_records asks to publish.
DomainLookups published() {
  DomainLookups found;
  found.root_txt = {"google-site-verification=abc", "v=spf1 include:spf.mail.platform.test ~all"};
  found.s1_cname = {"s1.k7q2.dkim.mail.platform.test."};
  found.s1_txt = {"v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx"};  // through the CNAME
  found.dmarc_txt = {"v=DMARC1; p=none;"};
  return found;
}

}  // namespace

TEST_CASE("domain names are normalized to lower case without a trailing dot, and bad ones refused") {
  CHECK(normalize_domain_name("Acme.COM.").value() == "acme.com");
  CHECK(normalize_domain_name("  mail.acme.com ").value() == "mail.acme.com");
  CHECK(normalize_domain_name("xn--bcher-kva.example").value() == "xn--bcher-kva.example");
  CHECK(normalize_domain_name("a-b.c0m").value() == "a-b.c0m");
  for (const char* bad : {"", ".", "acme", "acme..com", ".acme.com", "-acme.com", "acme-.com", "ac_me.com",
                          "acme.com/x", "ali@acme.com", "bücher.example", "192.168.1.10", "acme .com"}) {
    CAPTURE(bad);
    auto r = normalize_domain_name(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid_domain");
  }
  CHECK_FALSE(normalize_domain_name(std::string(64, 'a') + ".com").ok());  // a label over 63
  CHECK(normalize_domain_name(std::string(63, 'a') + ".com").ok());
  std::string long_name;
  for (int i = 0; i < 50; ++i) long_name += "abcd.";
  long_name += "com";  // 253 bytes
  CHECK(normalize_domain_name(long_name).ok());
  CHECK_FALSE(normalize_domain_name("a" + long_name).ok());
}

TEST_CASE(
    "the API form lists SPF at the root, two DKIM CNAMEs and DMARC; the checklist adds DKIM TXT and MX") {
  const std::vector<DnsRecord> records = domain_records(kDomain, kSetup);
  const std::vector<DnsRecord> expected{
      {"TXT", "acme.com", "v=spf1 include:spf.mail.platform.test ~all"},
      {"CNAME", "s1._domainkey.acme.com", "s1.k7q2.dkim.mail.platform.test"},
      {"CNAME", "s2._domainkey.acme.com", "s2.k7q2.dkim.mail.platform.test"},
      {"TXT", "_dmarc.acme.com", "v=DMARC1; p=none;"}};
  CHECK(records == expected);

  std::vector<DnsRecord> checklist = domain_checklist(kDomain, kSetup);
  REQUIRE(checklist.size() == 6);
  CHECK(std::vector<DnsRecord>(checklist.begin(), checklist.begin() + 4) == expected);
  CHECK(checklist[4] == DnsRecord{"TXT", "s1._domainkey.acme.com",
                                  "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx"});
  CHECK(checklist[5] == DnsRecord{"MX", "acme.com", "10 mx.mail.platform.test"});
}

TEST_CASE("published records pass every check; nothing published passes none") {
  CHECK(check_domain(kDomain, kSetup, published()) == DomainChecks{true, true, true});
  CHECK(check_domain(kDomain, kSetup, DomainLookups{}) == DomainChecks{false, false, false});
}

TEST_CASE("SPF passes with exactly one v=spf1 record that includes the platform") {
  auto spf = [](std::vector<std::string> txt) {
    DomainLookups found = published();
    found.root_txt = std::move(txt);
    return check_domain(kDomain, kSetup, found).spf;
  };
  CHECK(spf({"v=spf1 include:spf.mail.platform.test ~all"}));
  CHECK(spf({"v=spf1 ip4:203.0.113.0/24 include:_spf.google.com +include:SPF.Mail.Platform.Test. -all"}));
  CHECK(spf({"V=SPF1 include:spf.mail.platform.test -all"}));
  CHECK_FALSE(spf({"v=spf1 include:_spf.google.com ~all"}));                   // the platform is not included
  CHECK_FALSE(spf({"v=spf1 -include:spf.mail.platform.test ~all"}));           // included only to fail
  CHECK_FALSE(spf({"v=spf1 include:spf.mail.platform.test.evil.test ~all"}));  // a look-alike
  CHECK_FALSE(spf({"v=spf10 include:spf.mail.platform.test"}));                // not an SPF record
  // Two SPF records are a permanent error for every receiver (RFC 7208 §4.5), even if one is right.
  CHECK_FALSE(spf({"v=spf1 include:spf.mail.platform.test ~all", "v=spf1 include:_spf.google.com ~all"}));
}

TEST_CASE("DKIM passes when s1 points into the platform's zone or publishes the active key as TXT") {
  DomainLookups cname_only = published();
  cname_only.s1_txt.clear();
  CHECK(check_domain(kDomain, kSetup, cname_only).dkim);

  DomainLookups txt_only = published();
  txt_only.s1_cname.clear();
  CHECK(check_domain(kDomain, kSetup, txt_only).dkim);
  txt_only.s1_txt = {"k=rsa;  p=MIIBIjANBgkqhkiG9w0BAQEF AAOCAQ8AMIIBCgKCAQEAx"};  // no v=, spaces in p=
  CHECK(check_domain(kDomain, kSetup, txt_only).dkim);
  txt_only.s1_txt = {"v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAy"};  // another key
  CHECK_FALSE(check_domain(kDomain, kSetup, txt_only).dkim);
  txt_only.s1_txt = {"v=DKIM1; k=rsa; p="};  // a revoked key
  CHECK_FALSE(check_domain(kDomain, kSetup, txt_only).dkim);

  DomainLookups other_tag = published();
  other_tag.s1_txt.clear();
  other_tag.s1_cname = {"s1.zzzz.dkim.mail.platform.test"};  // another domain's keys
  CHECK_FALSE(check_domain(kDomain, kSetup, other_tag).dkim);
}

TEST_CASE("DMARC passes with exactly one v=DMARC1 record holding a valid policy") {
  auto dmarc = [](std::vector<std::string> txt) {
    DomainLookups found = published();
    found.dmarc_txt = std::move(txt);
    return check_domain(kDomain, kSetup, found).dmarc;
  };
  CHECK(dmarc({"v=DMARC1; p=none;"}));
  CHECK(dmarc({"v=DMARC1;p=reject;rua=mailto:dmarc@acme.com"}));
  CHECK(dmarc({" v = DMARC1 ; p = Quarantine"}));
  CHECK_FALSE(dmarc({"v=DMARC1; rua=mailto:dmarc@acme.com"}));  // no policy
  CHECK_FALSE(dmarc({"v=DMARC1; p=monitor"}));                  // not a policy
  CHECK_FALSE(dmarc({"p=none; v=DMARC1"}));                     // v= must come first (RFC 7489 §6.4)
  CHECK_FALSE(dmarc({"v=DMARC1; p=none", "v=DMARC1; p=reject"}));
}

TEST_CASE("a domain is verified when every check passes, pending for 60 minutes otherwise, then failed") {
  const std::int64_t created = 1'800'000'000'000;
  const DomainChecks passing{true, true, true}, no_dmarc{true, true, false};
  CHECK(domain_status(passing, created, created) == DomainStatus::verified);
  CHECK(domain_status(passing, created, created + 5 * kDomainPropagationMs) == DomainStatus::verified);
  CHECK(domain_status(no_dmarc, created, created) == DomainStatus::pending);
  CHECK(domain_status(no_dmarc, created, created + kDomainPropagationMs - 1) == DomainStatus::pending);
  CHECK(domain_status(no_dmarc, created, created + kDomainPropagationMs) == DomainStatus::failed);
  CHECK(std::string(to_string(DomainStatus::pending)) == "pending");
  CHECK(std::string(to_string(DomainStatus::verified)) == "verified");
  CHECK(std::string(to_string(DomainStatus::failed)) == "failed");
}

TEST_CASE("the platform's DKIM zone serves each selector's key where the domain's CNAME points") {
  auto r = dkim_zone_record("k7q2", "s2", "MIIBkey", kSetup);
  CHECK(r == DnsRecord{"TXT", "s2.k7q2.dkim.mail.platform.test", "v=DKIM1; k=rsa; p=MIIBkey"});
  // The same name the API asks the customer to point s1 at, and the same value the checklist's TXT form has.
  auto s1 = dkim_zone_record(kDomain.dkim_tag, "s1", kDomain.dkim_public_key_base64, kSetup);
  bool cname_matches = false, txt_matches = false;
  for (const auto& rec : domain_checklist(kDomain, kSetup)) {
    cname_matches |= rec.type == "CNAME" && rec.name == "s1._domainkey.acme.com" && rec.value == s1.name;
    txt_matches |= rec.type == "TXT" && rec.name == "s1._domainkey.acme.com" && rec.value == s1.value;
  }
  CHECK(cname_matches);
  CHECK(txt_matches);
}
