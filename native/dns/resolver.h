#pragma once
// DNS lookups for sending-domain verification (issue 12): TXT, CNAME and MX answers from one configured
// nameserver. `Resolver` is the seam the edge depends on, so its tests can hand in canned answers; the ldns
// implementation asks a real server. Decisions: docs/mail-domains.md, "DNS lookups".

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace native::dns {

struct MxRecord {
  std::uint16_t preference = 0;
  std::string host;  // without the trailing dot
  bool operator==(const MxRecord&) const = default;
};

// Every lookup answers with the records of the asked type, or an empty list when the name does not exist
// (NXDOMAIN) or has no record of that type (NODATA): "not published". Anything else is the error
// `dns_error` ("could not ask": a timeout, SERVFAIL, REFUSED, a malformed answer or name), whose message
// names the reason, so a caller never mistakes an unreachable resolver for a missing record.
class Resolver {
 public:
  virtual ~Resolver() = default;

  // TXT values, each the concatenation of its character-strings (RFC 7208 §3.3), in answer order. Records
  // reached through a CNAME at `name` are included, as a recursive resolver returns them.
  virtual core::Result<std::vector<std::string>> txt(std::string_view name) = 0;
  // The CNAME targets owned by `name` itself (normally one), without the trailing dot.
  virtual core::Result<std::vector<std::string>> cname(std::string_view name) = 0;
  virtual core::Result<std::vector<MxRecord>> mx(std::string_view name) = 0;
};

struct ResolverConfig {
  // `host:port` or `host` (port 53); host an IPv4 address or a bracketed IPv6 address (`[::1]:53`).
  // Empty: the nameservers of the system's /etc/resolv.conf.
  std::string nameserver;
  // Per attempt; a lookup that gets no answer fails after about `attempts * timeout` for each nameserver.
  std::chrono::milliseconds timeout{2000};
  int attempts = 2;  // 1..10
};

// An ldns resolver. Thread-safe: every lookup builds its own ldns resolver (no shared mutable state, no
// lock), which costs a re-read of /etc/resolv.conf per lookup when no nameserver is configured.
// Errors: `invalid_nameserver` for a nameserver that is not an address with an optional port, or attempts
// out of range.
core::Result<std::unique_ptr<Resolver>> make_ldns_resolver(ResolverConfig config);

}  // namespace native::dns
