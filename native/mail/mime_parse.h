#pragma once
// Incoming mail as the inbox shows it (issue 12, GET /inbox/{uid}): a raw RFC 5322 message read with
// GMime 3 into decoded headers, the body text and HTML, and the other parts. Decisions:
// docs/mail-delivery.md, "Parsing".

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace native::mail {

// A part that is not the message's body text or HTML (an attachment, an inline image, a second text part).
struct ParsedPart {
  std::string content_type;  // lower-case `type/subtype`, without parameters
  std::string filename;      // decoded (RFC 2231 or RFC 2047), empty when the part names none
  std::string disposition;   // lower case: "attachment", "inline", or empty when the part has no such field
  std::string content_id;    // without angle brackets, empty when absent
  std::string text;          // text/* parts only: the content in UTF-8, line breaks as LF; else empty
  std::string content;       // the content with the transfer encoding undone: the bytes as sent
  std::size_t size = 0;      // content.size()
};

struct ParsedMessage {
  std::string message_id;  // without angle brackets
  // Address lists in display form, decoded to UTF-8: `Name <a@b.test>, c@d.test`. Empty when absent.
  std::string from, to, cc, reply_to;
  std::string subject;   // decoded to UTF-8
  std::string date_iso;  // the Date header as ISO 8601 UTC with milliseconds, empty when absent or unreadable
  // The body: the first text/plain and the first text/html leaf that are not attachments (no
  // `Content-Disposition: attachment`, no file name), in UTF-8 with line breaks as LF.
  std::string text, html;
  std::vector<ParsedPart> attachments;  // every other leaf part, in message order
};

// Decodes transfer encodings (base64, quoted-printable), converts text from its declared charset to UTF-8
// (undeclared or unknown charsets: UTF-8 if the bytes are valid UTF-8, else windows-1252), and decodes
// RFC 2047 words in headers. An embedded message (message/rfc822) is one part whose content is that message.
// Lenient like a mail reader: malformed pieces are read as well as they can be rather than refused.
// Errors: `invalid_message` when the input has no header block GMime can read (for example empty input).
core::Result<ParsedMessage> parse_mime(std::string_view raw);

}  // namespace native::mail
