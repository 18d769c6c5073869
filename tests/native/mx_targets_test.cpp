// Where mail for a domain goes (RFC 5321 §5.1, RFC 7505): MX preference order, the implicit MX, the null
// MX and DNS failures, against a real dnsmasq and, for answers dnsmasq cannot be made to give, a resolver
// with canned answers.

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "native/dns/resolver.h"
#include "native/mail/mx_targets.h"
#include "tests/native/dnsmasq_zone.h"

using native::dns::MxRecord;
using native::mail::SmtpTarget;
using Targets = std::vector<SmtpTarget>;

namespace {

// MX answers from a table; names not in it have none. Counts the questions.
class CannedResolver final : public native::dns::Resolver {
 public:
  explicit CannedResolver(std::map<std::string, std::vector<MxRecord>> answers)
      : answers_(std::move(answers)) {}
  core::Result<std::vector<std::string>> txt(std::string_view) override { return std::vector<std::string>{}; }
  core::Result<std::vector<std::string>> cname(std::string_view) override {
    return std::vector<std::string>{};
  }
  core::Result<std::vector<MxRecord>> mx(std::string_view name) override {
    ++questions;
    if (name == "broken.test")
      return core::make_error("dns_error", "DNS lookup of broken.test failed: SERVFAIL");
    auto found = answers_.find(std::string(name));
    return found == answers_.end() ? std::vector<MxRecord>{} : found->second;
  }
  int questions = 0;

 private:
  std::map<std::string, std::vector<MxRecord>> answers_;
};

const test_dns::DnsmasqZone& zone() {
  static std::string failure;
  static const auto server = test_dns::DnsmasqZone::start(
      {
          "--mx-host=multi.example.test,mx3.example.test,30",
          "--mx-host=multi.example.test,mx1.example.test,10",
          "--mx-host=multi.example.test,mx2.example.test,20",
          "--mx-host=nullmx.example.test,.,0",
          "--txt-record=nomx.example.test,v=spf1 -all",
      },
      failure);
  REQUIRE_MESSAGE(server != nullptr, failure);
  return *server;
}

std::unique_ptr<native::dns::Resolver> resolver() {
  auto made = native::dns::make_ldns_resolver({zone().nameserver(), std::chrono::milliseconds(300), 2});
  REQUIRE(made.ok());
  return std::move(*made);
}

Targets targets(native::dns::Resolver& resolver, std::string_view domain, int port = 25) {
  auto found = native::mail::mx_targets(resolver, domain, port);
  REQUIRE_MESSAGE(found.ok(), found.error().code, ": ", found.error().message);
  return *found;
}

}  // namespace

TEST_SUITE("mx") {
  TEST_CASE("dnsmasq: MX hosts, lowest preference first") {
    auto dns = resolver();
    CHECK(targets(*dns, "multi.example.test") ==
          Targets{{"mx1.example.test", 25}, {"mx2.example.test", 25}, {"mx3.example.test", 25}});
    CHECK(targets(*dns, "MULTI.example.test", 2525).front() == SmtpTarget{"mx1.example.test", 2525});
  }

  TEST_CASE("dnsmasq: no MX record, or no such name: the domain itself (implicit MX)") {
    auto dns = resolver();
    CHECK(targets(*dns, "nomx.example.test") == Targets{{"nomx.example.test", 25}});
    CHECK(targets(*dns, "missing.example.test", 587) == Targets{{"missing.example.test", 587}});
  }

  TEST_CASE("dnsmasq: a null MX is the permanent error null_mx") {
    auto dns = resolver();
    auto found = native::mail::mx_targets(*dns, "nullmx.example.test");
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().code == "null_mx");
  }

  TEST_CASE("dnsmasq: a refused question is dns_error, passed through") {
    auto dns = resolver();
    auto found = native::mail::mx_targets(*dns, "outside.test");  // not in the zone: REFUSED
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().code == "dns_error");
    CHECK(found.error().message.find("REFUSED") != std::string::npos);
  }

  TEST_CASE("canned: ties keep the answer's order, a host listed twice comes once, names lower-cased") {
    CannedResolver dns(
        {{"acme.test",
          {{20, "b.mx.test"}, {10, "A.mx.test"}, {10, "c.mx.test"}, {30, "a.mx.test"}, {5, "."}}}});
    CHECK(targets(dns, "acme.test") == Targets{{"a.mx.test", 25}, {"c.mx.test", 25}, {"b.mx.test", 25}});
  }

  TEST_CASE("canned: null MX forms; a '.' beside real hosts is ignored") {
    CannedResolver dns(
        {{"null.test", {{0, "."}}}, {"empty.test", {{0, ""}}}, {"mixed.test", {{0, "."}, {10, "mx.test"}}}});
    CHECK(native::mail::mx_targets(dns, "null.test").error().code == "null_mx");
    CHECK(native::mail::mx_targets(dns, "empty.test").error().code == "null_mx");
    CHECK(targets(dns, "mixed.test") == Targets{{"mx.test", 25}});
  }

  TEST_CASE("canned: a resolver error passes through; a domain that is no host name is not looked up") {
    CannedResolver dns({});
    auto broken = native::mail::mx_targets(dns, "broken.test");
    REQUIRE_FALSE(broken.ok());
    CHECK(broken.error().code == "dns_error");
    CHECK(broken.error().message == "DNS lookup of broken.test failed: SERVFAIL");
    dns.questions = 0;
    for (std::string_view domain : {"[192.0.2.1]", "", "localhost", "a..test", "192.0.2.1", "dest.test."}) {
      CAPTURE(domain);
      CHECK(native::mail::mx_targets(dns, domain).error().code == "invalid_domain");
    }
    CHECK(dns.questions == 0);
  }
}
