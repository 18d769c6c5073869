#include "core/mail/domain_records.h"

#include <string_view>

#include "core/ascii.h"

namespace core::mail {
namespace {

std::string dkim_target(std::string_view dkim_tag, const MailDnsSetup& setup, std::string_view selector) {
  return std::string(selector) + "." + std::string(dkim_tag) + "." + setup.dkim_zone;
}

std::string dkim_key_record(const SendingDomain& domain) {
  return dkim_key_record_value(domain.dkim_public_key_base64);
}

// A DNS name as compared: case-insensitive, a trailing dot ignored.
bool same_name(std::string_view a, std::string_view b) {
  if (!a.empty() && a.back() == '.') a.remove_suffix(1);
  if (!b.empty() && b.back() == '.') b.remove_suffix(1);
  return ascii_iequals(a, b);
}

// The value of `tag` in a DKIM/DMARC tag list (`k=v; k=v`, RFC 6376 §3.2), whitespace removed from it.
std::optional<std::string> tag_value(std::string_view list, std::string_view tag) {
  while (!list.empty()) {
    std::size_t semi = list.find(';');
    std::string_view item = list.substr(0, semi);
    list = semi == std::string_view::npos ? std::string_view() : list.substr(semi + 1);
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) continue;
    if (trim_ascii_space(item.substr(0, eq)) != tag) continue;
    std::string value;
    for (char c : item.substr(eq + 1))
      if (!is_ascii_space(c)) value.push_back(c);
    return value;
  }
  return std::nullopt;
}

// Whether `txt` is an SPF record: `v=spf1` alone or followed by a space (RFC 7208 §4.5).
bool is_spf(std::string_view txt) {
  if (txt.size() < 6 || !ascii_iequals(txt.substr(0, 6), "v=spf1")) return false;
  return txt.size() == 6 || txt[6] == ' ';
}

bool spf_includes(std::string_view record, std::string_view target) {
  record.remove_prefix(6);
  while (!record.empty()) {
    std::size_t space = record.find(' ');
    std::string_view term = record.substr(0, space);
    record = space == std::string_view::npos ? std::string_view() : record.substr(space + 1);
    if (!term.empty() && term.front() == '+') term.remove_prefix(1);  // the default qualifier, written out
    if (term.size() > 8 && ascii_iequals(term.substr(0, 8), "include:") && same_name(term.substr(8), target))
      return true;
  }
  return false;
}

// A DMARC record begins with the tag `v=DMARC1` (RFC 7489 §6.4).
bool is_dmarc(std::string_view txt) {
  std::size_t semi = txt.find(';');
  std::string_view first = trim_ascii_space(txt.substr(0, semi));
  std::size_t eq = first.find('=');
  return eq != std::string_view::npos && trim_ascii_space(first.substr(0, eq)) == "v" &&
         trim_ascii_space(first.substr(eq + 1)) == "DMARC1";
}

}  // namespace

std::vector<DnsRecord> domain_records(const SendingDomain& domain, const MailDnsSetup& setup) {
  std::vector<DnsRecord> out;
  out.push_back({"TXT", domain.name, "v=spf1 include:" + setup.spf_include + " ~all"});
  for (const char* selector : kDkimSelectors)
    out.push_back({"CNAME", std::string(selector) + "._domainkey." + domain.name,
                   dkim_target(domain.dkim_tag, setup, selector)});
  out.push_back({"TXT", "_dmarc." + domain.name, "v=DMARC1; p=none;"});
  return out;
}

std::vector<DnsRecord> domain_checklist(const SendingDomain& domain, const MailDnsSetup& setup) {
  std::vector<DnsRecord> out = domain_records(domain, setup);
  out.push_back(
      {"TXT", std::string(kDkimSelectors[0]) + "._domainkey." + domain.name, dkim_key_record(domain)});
  out.push_back({"MX", domain.name, "10 " + setup.mx_host});
  return out;
}

DomainChecks check_domain(const SendingDomain& domain, const MailDnsSetup& setup,
                          const DomainLookups& found) {
  DomainChecks checks;

  // More than one SPF record is a permanent error for receivers (RFC 7208 §4.5): it does not pass.
  int spf_records = 0;
  bool spf_ok = false;
  for (const std::string& txt : found.root_txt) {
    if (!is_spf(txt)) continue;
    ++spf_records;
    spf_ok = spf_includes(txt, setup.spf_include);
  }
  checks.spf = spf_records == 1 && spf_ok;

  const std::string target = dkim_target(domain.dkim_tag, setup, kDkimSelectors[0]);
  for (const std::string& cname : found.s1_cname) checks.dkim = checks.dkim || same_name(cname, target);
  for (const std::string& txt : found.s1_txt) {
    auto v = tag_value(txt, "v");
    auto p = tag_value(txt, "p");
    if ((!v || *v == "DKIM1") && p && !p->empty() && *p == domain.dkim_public_key_base64) checks.dkim = true;
  }

  int dmarc_records = 0;
  bool dmarc_ok = false;
  for (const std::string& txt : found.dmarc_txt) {
    if (!is_dmarc(txt)) continue;
    ++dmarc_records;
    auto policy = tag_value(txt, "p");
    dmarc_ok = policy && (ascii_iequals(*policy, "none") || ascii_iequals(*policy, "quarantine") ||
                          ascii_iequals(*policy, "reject"));
  }
  checks.dmarc = dmarc_records == 1 && dmarc_ok;
  return checks;
}

const char* to_string(DomainStatus status) {
  switch (status) {
    case DomainStatus::verified:
      return "verified";
    case DomainStatus::failed:
      return "failed";
    case DomainStatus::pending:
      break;
  }
  return "pending";
}

DomainStatus domain_status(const DomainChecks& checks, std::int64_t created_at_ms, std::int64_t now_ms) {
  if (checks.all()) return DomainStatus::verified;
  return now_ms - created_at_ms < kDomainPropagationMs ? DomainStatus::pending : DomainStatus::failed;
}

std::string dkim_key_record_value(std::string_view public_key_base64) {
  return "v=DKIM1; k=rsa; p=" + std::string(public_key_base64);
}

DnsRecord dkim_zone_record(std::string_view dkim_tag, std::string_view selector,
                           std::string_view public_key_base64, const MailDnsSetup& setup) {
  return {"TXT", dkim_target(dkim_tag, setup, selector), dkim_key_record_value(public_key_base64)};
}

}  // namespace core::mail
