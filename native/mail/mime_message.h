#pragma once
// Outgoing mail as RFC 5322 bytes (issue 12): what POST /send queues, built with GMime 3 once per message
// and then signed (dkim_signer.h) and handed to each recipient's SMTP transaction (smtp_client.h).
// Decisions: docs/mail-delivery.md, "MIME shape".

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace native::mail {

struct Attachment {
  std::string filename;      // may be empty; any UTF-8 (sent per RFC 2231); no CR, LF or NUL
  std::string content_type;  // `type/subtype` with optional parameters; empty: application/octet-stream
  std::string content;       // raw bytes, sent base64-encoded, so any byte survives exactly
};

struct OutgoingMessage {
  std::string from;                     // "Display Name <a@b.test>" or "a@b.test": exactly one mailbox
  std::vector<std::string> to;          // one or more, each a mailbox in either form
  std::string reply_to;                 // optional, one mailbox in either form
  std::string subject;                  // UTF-8; may be empty; GMime drops leading and trailing blanks
  std::string html, text;               // UTF-8; at least one; both -> multipart/alternative (text first)
  std::vector<Attachment> attachments;  // any -> multipart/mixed (body first, then these in order)
  // `id-left@id-right` without angle brackets, each side a dot-atom (RFC 5322 §3.6.4); written as
  // `Message-ID: <message_id>`. The platform uses `<mailLogId>@<sending domain>` (docs/mail-delivery.md).
  std::string message_id;
  std::int64_t date_ms = 0;  // required (> 0): the Date header, in UTC, to the second
  // Extra header fields in order, e.g. {"X-Mail-Log-Id", "ml_..."}. Values are UTF-8 (encoded per RFC 2047
  // when not ASCII). The builder's own fields (From, Sender, To, Cc, Bcc, Reply-To, Subject, Date,
  // Message-ID, MIME-Version, DKIM-Signature, Content-*) cannot be given here.
  std::vector<std::pair<std::string, std::string>> headers;
};

// The message as RFC 5322 bytes: CRLF line ends throughout (no bare CR or LF anywhere), lines within
// 998 bytes, header text that is not ASCII encoded per RFC 2047 in UTF-8, `MIME-Version: 1.0`.
// Shape: a text-only or html-only message is that single part; both make multipart/alternative; any
// attachment wraps the body in multipart/mixed. Text parts are `charset=utf-8`, 7bit when they can be,
// else quoted-printable or base64 (GMime's choice of the shorter); their line breaks (LF, CRLF or a lone
// CR) become CRLF and a missing final line break is added. Addresses must be ASCII (no SMTPUTF8;
// internationalised domains in their A-label form); display names may be any UTF-8.
// Errors: `invalid_message` naming the field that is wrong (a missing or malformed address, no body, a bad
// message_id or date, CR or LF inside a header value, a reserved or malformed extra header name, a bad
// attachment content type); `mime_error` if GMime fails to produce a well-formed message (not expected).
core::Result<std::string> build_mime(const OutgoingMessage& message);

}  // namespace native::mail
