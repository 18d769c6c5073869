// The ldns resolver and the sending-domain lookups (issue 12) against a real dnsmasq: answers, empty lists
// for names or types that are not published, and `dns_error` when the server cannot be asked.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/mail/domain_records.h"
#include "dnsmasq_zone.h"
#include "native/dns/domain_lookups.h"
#include "native/dns/resolver.h"

using native::dns::MxRecord;
using Strings = std::vector<std::string>;

namespace {

const std::string kLongTxt = "long=" + std::string(295, 'x') + "-end";  // 300 bytes: two character-strings
const std::string kKey = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx";
const core::mail::MailDnsSetup kSetup{"spf.example.test", "dkim.example.test", "mx.example.test"};

// One server for the whole file; every case asks its own names.
const test_dns::DnsmasqZone& zone() {
  static std::string failure;
  static const auto server = test_dns::DnsmasqZone::start(
      {
          "--txt-record=txt.example.test,v=spf1 include:spf.example.test ~all",
          "--txt-record=txt.example.test," + kLongTxt,
          "--txt-record=target.example.test,target",
          "--cname=alias.example.test,target.example.test",
          "--mx-host=mx.example.test,mx1.example.test,10",
          "--mx-host=mx.example.test,mx2.example.test,20",
          // Fully published: SPF, s1 CNAME into the platform's DKIM zone, DMARC.
          "--txt-record=acme.example.test,v=spf1 include:spf.example.test ~all",
          "--cname=s1._domainkey.acme.example.test,s1.k7q2.dkim.example.test",
          "--txt-record=s1.k7q2.dkim.example.test,v=DKIM1; k=rsa; p=" + kKey,
          "--txt-record=_dmarc.acme.example.test,v=DMARC1; p=none;",
          // SPF and the DKIM key as TXT, but no DMARC.
          "--txt-record=nodmarc.example.test,v=spf1 include:spf.example.test ~all",
          "--txt-record=s1._domainkey.nodmarc.example.test,v=DKIM1; k=rsa; p=" + kKey,
      },
      failure);
  REQUIRE_MESSAGE(server != nullptr, failure);
  return *server;
}

std::unique_ptr<native::dns::Resolver> resolver(std::string nameserver) {
  auto made = native::dns::make_ldns_resolver({std::move(nameserver), std::chrono::milliseconds(300), 2});
  REQUIRE(made.ok());
  return std::move(*made);
}

std::unique_ptr<native::dns::Resolver> resolver() {
  return resolver(zone().nameserver());
}

}  // namespace

TEST_SUITE("dns") {
  TEST_CASE("TXT: every record, character-strings of a long value rejoined") {
    auto found = resolver()->txt("txt.example.test");
    REQUIRE(found.ok());
    Strings sorted = *found;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == Strings{kLongTxt, "v=spf1 include:spf.example.test ~all"});
  }

  TEST_CASE("CNAME: the target without the trailing dot") {
    auto found = resolver()->cname("alias.example.test");
    REQUIRE(found.ok());
    CHECK(*found == Strings{"target.example.test"});
  }

  TEST_CASE("MX: preference and host") {
    auto found = resolver()->mx("mx.example.test");
    REQUIRE(found.ok());
    std::vector<MxRecord> sorted = *found;
    std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.preference < b.preference; });
    CHECK(sorted == std::vector<MxRecord>{{10, "mx1.example.test"}, {20, "mx2.example.test"}});
  }

  TEST_CASE("NXDOMAIN: an empty list for every type") {
    auto r = resolver();
    auto txt = r->txt("missing.example.test");
    auto cname = r->cname("missing.example.test");
    auto mx = r->mx("missing.example.test");
    REQUIRE(txt.ok());
    REQUIRE(cname.ok());
    REQUIRE(mx.ok());
    CHECK(txt->empty());
    CHECK(cname->empty());
    CHECK(mx->empty());
  }

  TEST_CASE("NODATA: a name with records of another type gives an empty list") {
    auto r = resolver();
    auto mx = r->mx("txt.example.test");
    auto cname = r->cname("mx.example.test");
    auto txt = r->txt("mx.example.test");
    REQUIRE(mx.ok());
    REQUIRE(cname.ok());
    REQUIRE(txt.ok());
    CHECK(mx->empty());
    CHECK(cname->empty());
    CHECK(txt->empty());
  }

  TEST_CASE("a name outside the server's zone is REFUSED: dns_error, not an empty list") {
    auto found = resolver()->txt("outside.invalid");
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().code == "dns_error");
    CHECK(found.error().message == "DNS lookup of outside.invalid failed: REFUSED");
  }

  TEST_CASE("no server on the port: dns_error after the timeout") {
    int port = test_dns::free_port();
    REQUIRE(port != 0);
    auto found = resolver("127.0.0.1:" + std::to_string(port))->txt("txt.example.test");
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().code == "dns_error");
  }

  TEST_CASE("nameserver configuration is checked when the resolver is made") {
    for (const char* bad :
         {"localhost:53", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:70000", "[::1", "[::1]x", "1.2.3.4:53x"}) {
      CAPTURE(bad);
      auto made = native::dns::make_ldns_resolver({bad, std::chrono::milliseconds(300), 2});
      REQUIRE_FALSE(made.ok());
      CHECK(made.error().code == "invalid_nameserver");
    }
    CHECK(native::dns::make_ldns_resolver({"[::1]:5353", std::chrono::milliseconds(300), 2}).ok());
    CHECK(native::dns::make_ldns_resolver({"127.0.0.1", std::chrono::milliseconds(300), 2}).ok());
    CHECK_FALSE(native::dns::make_ldns_resolver({"127.0.0.1", std::chrono::milliseconds(300), 0}).ok());
  }

  TEST_CASE("lookup_domain feeds check_domain: a fully published domain passes every check") {
    auto r = resolver();
    auto found = native::dns::lookup_domain(*r, "acme.example.test");
    REQUIRE(found.ok());
    CHECK(found->root_txt == Strings{"v=spf1 include:spf.example.test ~all"});
    CHECK(found->s1_cname == Strings{"s1.k7q2.dkim.example.test"});
    CHECK(found->dmarc_txt == Strings{"v=DMARC1; p=none;"});
    core::mail::SendingDomain domain{"acme.example.test", "k7q2", kKey};
    CHECK(core::mail::check_domain(domain, kSetup, *found) == core::mail::DomainChecks{true, true, true});
  }

  TEST_CASE("lookup_domain: a domain without DMARC fails only the dmarc check") {
    auto r = resolver();
    auto found = native::dns::lookup_domain(*r, "nodmarc.example.test");
    REQUIRE(found.ok());
    CHECK(found->s1_cname.empty());
    CHECK(found->s1_txt == Strings{"v=DKIM1; k=rsa; p=" + kKey});
    CHECK(found->dmarc_txt.empty());
    core::mail::SendingDomain domain{"nodmarc.example.test", "m3x9", kKey};
    CHECK(core::mail::check_domain(domain, kSetup, *found) == core::mail::DomainChecks{true, true, false});
  }

  TEST_CASE("lookup_domain: a lookup that cannot be asked fails the whole") {
    auto r = resolver();
    auto found = native::dns::lookup_domain(*r, "outside.invalid");
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().code == "dns_error");
  }
}
