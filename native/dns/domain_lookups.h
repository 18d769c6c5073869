#pragma once
// The four lookups of a sending-domain check (POST /domains/{id}/verify), gathered for
// core::mail::check_domain. Decisions: docs/mail-domains.md.

#include <string_view>

#include "core/mail/domain_records.h"
#include "core/result.h"
#include "native/dns/resolver.h"

namespace native::dns {

// TXT at `domain`, CNAME and TXT at `s1._domainkey.<domain>`, TXT at `_dmarc.<domain>`. A name that is not
// published gives an empty list; any lookup that fails (`dns_error`) fails the whole, so a check never
// reports "missing" for a record it could not ask about.
core::Result<core::mail::DomainLookups> lookup_domain(Resolver& resolver, std::string_view domain);

}  // namespace native::dns
