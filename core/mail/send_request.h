#pragma once
// The body of POST /send (spec document 2, "Mail: send"; docs/mail-send.md), read and checked before
// anything is looked up: raw or template mode, recipients, reply-to, attachments and schedule. What needs
// the store (the domain is the company's and verified, the template exists and has its variables) is the
// edge's, with the rules here.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "core/result.h"

namespace core::mail {

// Document 2: "attachments ... total capped at 25 MB per message" (decoded bytes; 413 past it).
inline constexpr std::size_t kMaxAttachmentBytes = 25u * 1000 * 1000;
// Recipients per send call (Postmark's and Resend's limit).
inline constexpr std::size_t kMaxRecipients = 50;
// How far ahead `scheduledAt` may be (Resend: 30 days).
inline constexpr std::int64_t kMaxScheduleAheadMs = 30LL * 24 * 3600 * 1000;

struct MailAddress {
  std::string display_name;  // may be empty
  std::string address;       // local@domain, domain lower-cased
  std::string domain() const { return address.substr(address.rfind('@') + 1); }
};

// `addr@example.com` or `Display Name <addr@example.com>` (the name optionally in double quotes). The
// address must pass core::validate_email. Errors: `invalid_email`.
Result<MailAddress> parse_mail_address(std::string_view text);

struct SendAttachment {
  std::string filename, content_type;
  std::string content;  // decoded bytes
};

struct SendRequest {
  std::string domain_id;
  MailAddress from;
  std::vector<std::string> to;  // addresses, lower-cased domain, each once, in the order given
  std::optional<MailAddress> reply_to;
  // Template mode: template_id and variables; raw mode: subject and html and/or text.
  std::optional<std::string> template_id;
  boost::json::object variables;
  std::string locale;
  std::string subject, html, text;
  std::vector<SendAttachment> attachments;
  std::optional<std::int64_t> scheduled_at_ms;
};

// Reads and checks a send body at `now_ms`. Errors (each message names the field):
//   invalid_field / invalid_email   wrong type, missing required field, a bad address, no recipient, more
//                                   than kMaxRecipients, both or neither of template and raw content, raw
//                                   mode without subject or without html and text, an attachment without a
//                                   filename or with content that is not base64, scheduledAt not a
//                                   timestamp or more than kMaxScheduleAheadMs ahead
//   payload_too_large               attachments above kMaxAttachmentBytes once decoded
// A scheduledAt in the past means now.
Result<SendRequest> parse_send_request(const boost::json::object& body, std::int64_t now_ms);

// The sending rule of document 2: `from` must be an address of the verified sending domain itself.
// Error: `unprocessable` naming both.
Status check_from_domain(const MailAddress& from, std::string_view domain_name);

}  // namespace core::mail
