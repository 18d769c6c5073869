#pragma once
// DKIM signing of outgoing mail (RFC 6376) with libopendkim, once per message before its SMTP
// transactions. Decisions: docs/mail-delivery.md, "DKIM".

#include <string>
#include <string_view>

#include "core/result.h"

namespace native::mail {

struct DkimSigningKey {
  std::string domain;           // d=, the sending domain, e.g. "acme.com"
  std::string selector;         // s=, e.g. "s1": the key is published at <selector>._domainkey.<domain>
  std::string private_key_pem;  // RSA, PKCS#8 or PKCS#1 PEM, unencrypted (DkimKeyPair::private_key_pem)
};

// The header fields signed when present, each once, in the order they appear in the message.
inline constexpr const char* kDkimSignedHeaders[] = {
    "From", "To", "Subject", "Date", "Message-ID", "Reply-To", "MIME-Version", "Content-Type"};

// `message` (RFC 5322 with CRLF line ends, as build_mime makes it) with a `DKIM-Signature:` field
// prepended: a=rsa-sha256, c=relaxed/relaxed, d= and s= from `key`, t= now, h= the kDkimSignedHeaders
// present, the body hash over the whole body (no l=). The rest of the message is returned unchanged, so a
// receiver sees exactly the bytes that were signed. Header fields other than kDkimSignedHeaders (for
// example X-Mail-Log-Id) are not signed: a relay may add or rewrite such fields without breaking the
// signature.
// Thread-safe: every call has its own signing handle on one process-wide library instance.
// Errors: `invalid_message` (a bare CR or LF, no From field, a header line without a colon);
// `invalid_key` (a domain or selector that is not a DNS name, a PEM that is not an unencrypted RSA
// private key of at least 1024 bits); `dkim_error` with libopendkim's reason for anything else.
core::Result<std::string> dkim_sign(std::string_view message, const DkimSigningKey& key);

}  // namespace native::mail
