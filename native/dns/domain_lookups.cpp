#include "native/dns/domain_lookups.h"

#include <string>

namespace native::dns {

core::Result<core::mail::DomainLookups> lookup_domain(Resolver& resolver, std::string_view domain) {
  const std::string name(domain);
  const std::string s1 = "s1._domainkey." + name;
  core::mail::DomainLookups found;
  auto root_txt = resolver.txt(name);
  if (!root_txt.ok()) return root_txt.error();
  found.root_txt = std::move(*root_txt);
  auto s1_cname = resolver.cname(s1);
  if (!s1_cname.ok()) return s1_cname.error();
  found.s1_cname = std::move(*s1_cname);
  auto s1_txt = resolver.txt(s1);
  if (!s1_txt.ok()) return s1_txt.error();
  found.s1_txt = std::move(*s1_txt);
  auto dmarc_txt = resolver.txt("_dmarc." + name);
  if (!dmarc_txt.ok()) return dmarc_txt.error();
  found.dmarc_txt = std::move(*dmarc_txt);
  return found;
}

}  // namespace native::dns
