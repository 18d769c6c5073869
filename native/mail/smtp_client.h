#pragma once
// Delivery of one message to one recipient over SMTP (RFC 5321) with libcurl: what the mail worker calls
// for each recipient at each MX target (mx_targets.h). Decisions: docs/mail-delivery.md, "SMTP outcome".

#include <chrono>
#include <string>
#include <string_view>

namespace native::mail {

struct SmtpTarget {
  std::string host;  // a host name, an IPv4 address or an IPv6 address (without brackets)
  int port = 25;
  bool operator==(const SmtpTarget&) const = default;
};

struct SmtpOutcome {
  // delivered: the server accepted the message (2xx after the data). transient: try again later, maybe at
  // another MX (a 4xx reply at any step, no connection, a timeout, a broken connection, a problem on our
  // side). permanent: do not retry this recipient (a 5xx reply at any step, or a malformed address).
  enum class Kind { delivered, transient, permanent } kind = Kind::transient;
  // The reply code that decided (250, 450, 550, ...); 0 when no reply decided (no connection, timeout,
  // malformed input).
  int code = 0;
  // The server's deciding reply as sent, lines joined by "\n" without CR, e.g. "550 5.1.1 no such user"
  // (printable ASCII only, other bytes as '?', at most 4 KB); otherwise libcurl's description of what
  // failed (e.g. "Failed to connect to ... Couldn't connect to server").
  std::string reply;
};

// One SMTP transaction: EHLO `helo_name` (HELO if EHLO is refused), STARTTLS when the server offers it
// (opportunistic, RFC 7435: the certificate is not checked, and a server without STARTTLS gets
// plaintext), MAIL FROM:<mail_from> (empty: the null reverse-path `<>`, for bounces), RCPT TO:<rcpt_to>,
// DATA with `message` (CRLF line ends; libcurl adds the dot-stuffing and the final `.`), QUIT.
// One recipient per transaction, so each recipient's outcome is its own.
// `timeout` bounds the transaction (connect included); the closing QUIT, sent after a refusal too, may
// wait as long again for its reply, rounded up to whole seconds (libcurl bounds it separately), so a
// call takes at most about 2 * timeout + 1 s.
// `helo_name` is this host's name as other servers should see it (a host name or an address literal
// like "[192.0.2.1]").
// Never throws; thread-safe (libcurl is initialised once per process; each call has its own handle and no
// signals are used for timeouts).
SmtpOutcome smtp_send(const SmtpTarget& target, std::string_view mail_from, std::string_view rcpt_to,
                      std::string_view message, std::chrono::milliseconds timeout,
                      std::string_view helo_name);

}  // namespace native::mail
