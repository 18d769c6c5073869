#pragma once
// Where mail for a recipient domain goes (RFC 5321 §5.1, RFC 7505): the hosts the mail worker tries in
// turn with smtp_send. Decisions: docs/mail-delivery.md, "MX rules".

#include <string_view>
#include <vector>

#include "core/result.h"
#include "native/dns/resolver.h"
#include "native/mail/smtp_client.h"

namespace native::mail {

// The SMTP targets for `domain`, each on `port`:
// - its MX hosts, lowest preference first; hosts of equal preference keep the resolver's order (a
//   recursive resolver rotates them, which spreads the load); a host listed twice appears once;
// - no MX record (the name has none, or does not exist): the domain itself, the implicit MX;
// - a null MX (RFC 7505: the only record is `0 .`): the error `null_mx`, the domain accepts no mail.
//   A "." record beside real hosts is ignored.
// Errors: `invalid_domain` (not a host name: core::validate_domain_name; address literals such as
// `[192.0.2.1]` are not delivered to), `null_mx` (both permanent for the recipient); `dns_error` from
// the resolver, unchanged (transient: try later).
// The resolver's "not published" is one answer for NXDOMAIN and NODATA, so a domain that does not exist
// gets its implicit MX too and fails later at the connection, as a transient failure.
core::Result<std::vector<SmtpTarget>> mx_targets(native::dns::Resolver& resolver, std::string_view domain,
                                                 int port = 25);

}  // namespace native::mail
