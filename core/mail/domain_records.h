#pragma once
// The DNS records a company publishes for a sending domain (spec document 2, "DNS records returned"), and
// the checks that decide whether they are in place (spec/DECISIONS.md, "Domain state"). Pure: the lookups
// are made by the edge (a real resolver) and handed in as DomainLookups. Decisions: docs/mail-domains.md.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core::mail {

// The deployment's own DNS names the records point at (edge configuration).
struct MailDnsSetup {
  std::string spf_include;  // SPF `include:` target, e.g. "spf.mail.platform.example"
  std::string dkim_zone;    // zone serving the DKIM keys, e.g. "dkim.mail.platform.example"
  std::string mx_host;      // inbound mail host for platform mailboxes, e.g. "mx.mail.platform.example"
};

// One domain's facts for its records: its normalized name, a per-domain tag naming its key records in the
// platform's DKIM zone (lower-case letters and digits, made at creation), and the public key of the
// active selector `s1` as base64 DER (SubjectPublicKeyInfo).
struct SendingDomain {
  std::string name;
  std::string dkim_tag;
  std::string dkim_public_key_base64;
};

struct DnsRecord {
  std::string type;  // "TXT", "CNAME" or "MX"
  std::string name;  // the fully qualified owner name, without a trailing dot
  std::string value;
  bool operator==(const DnsRecord&) const = default;
};

// The selectors: `s1` signs; `s2` is published in advance so keys can rotate without a DNS change.
inline constexpr const char* kDkimSelectors[] = {"s1", "s2"};

// The records of the API form: SPF TXT at the root, `s1._domainkey` and `s2._domainkey` CNAMEs into the
// platform's DKIM zone, DMARC TXT at `_dmarc`.
std::vector<DnsRecord> domain_records(const SendingDomain& domain, const MailDnsSetup& setup);

// The mail-product checklist: the same, plus DKIM as a TXT at `s1._domainkey` (for DNS hosts that cannot
// point a CNAME there) and an MX record (only to receive mail in platform mailboxes).
std::vector<DnsRecord> domain_checklist(const SendingDomain& domain, const MailDnsSetup& setup);

// The TXT value that publishes a DKIM key (RFC 6376 §3.6.1): `v=DKIM1; k=rsa; p=<base64 DER key>`.
std::string dkim_key_record_value(std::string_view public_key_base64);

// What the platform's DKIM zone serves for one selector of a domain, where that domain's
// `<selector>._domainkey` CNAME points: TXT `<selector>.<dkim_tag>.<dkim_zone>` with the key's value. The
// deployment publishes these (`edge-admin mail dkim-zone`).
DnsRecord dkim_zone_record(std::string_view dkim_tag, std::string_view selector,
                           std::string_view public_key_base64, const MailDnsSetup& setup);

// What a resolver found; an empty list for a name with no record of that type (NXDOMAIN or NODATA). TXT
// values are the concatenation of their character-strings (RFC 7208 §3.3).
struct DomainLookups {
  std::vector<std::string> root_txt;   // TXT at the domain
  std::vector<std::string> s1_cname;   // CNAME at s1._domainkey.<domain>
  std::vector<std::string> s1_txt;     // TXT at s1._domainkey.<domain>
  std::vector<std::string> dmarc_txt;  // TXT at _dmarc.<domain>
};

// The per-record checks of POST /domains/{id}/verify.
struct DomainChecks {
  bool spf = false;    // exactly one `v=spf1` TXT at the root, with `include:<spf_include>`
  bool dkim = false;   // s1 points into the platform's zone, or publishes the active key as TXT
  bool dmarc = false;  // exactly one `v=DMARC1` TXT at _dmarc with a valid `p=` policy
  bool all() const { return spf && dkim && dmarc; }
  bool operator==(const DomainChecks&) const = default;
};

DomainChecks check_domain(const SendingDomain& domain, const MailDnsSetup& setup, const DomainLookups& found);

enum class DomainStatus { pending, verified, failed };
const char* to_string(DomainStatus status);

// How long records may take to propagate before a domain whose checks fail is `failed` (60 minutes).
inline constexpr std::int64_t kDomainPropagationMs = 60 * 60 * 1000;

// The state after a check at `now_ms` of a domain created at `created_at_ms`: verified when every check
// passes; pending while one fails and the domain is younger than kDomainPropagationMs; failed after that.
DomainStatus domain_status(const DomainChecks& checks, std::int64_t created_at_ms, std::int64_t now_ms);

}  // namespace core::mail
