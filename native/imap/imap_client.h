#pragma once
// Reading and changing platform mailboxes over IMAP (issue 12, "Mail: inbox"). The platform logs in to
// Dovecot as its master user on behalf of a mailbox (`<address>*<master user>`, see dovecot_users.h), so it
// never needs a mailbox's own password. Decisions and measured costs: docs/mailboxes.md.
//
// Every call opens one connection, logs in, runs its commands and logs out: thread-safe, no shared state,
// about 12 ms per call on these machines with the master password hashed by hash_master_password (Dovecot
// starts an imap process per session; an interactive-cost hash makes it about 140 ms).
//
// Errors common to every call:
// - `imap_error`: cannot connect, the login is refused (wrong master password, unknown mailbox), the
//   deadline passed, or the server answered NO/BAD or something unparsable; the message says which. Dovecot
//   answers a refused login only after 2 s (auth_failure_delay), so check that a mailbox exists first.
// - `not_found`: no message with that UID in the folder (UIDs are never reused within a folder).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace native::imap {

struct ImapAccount {
  std::string host;  // an address or name (letters, digits, `.-:`); an IPv6 address without brackets
  int port = 143;
  std::string login;     // "<address>*platform" (master_login in dovecot_users.h)
  std::string password;  // the master password
  // For the whole call: connecting, logging in and every command.
  std::chrono::milliseconds timeout{10000};
};

// The spec's folders; IMAP names INBOX, Sent and Trash (created by Dovecot on first login, dovecot_config.h).
enum class Folder { inbox, sent, trash };

const char* folder_name(Folder folder);

struct MessageSummary {
  std::uint32_t uid = 0;
  bool unread = false;   // no \Seen flag
  std::string from, to;  // "Name <address>, ...", names decoded from RFC 2047
  std::string subject;   // decoded from RFC 2047, UTF-8
  std::string date_iso;  // the Date field in UTC ("2025-11-24T09:00:00Z"), else the arrival time
  std::size_t size = 0;  // RFC822.SIZE: bytes of the message with CRLF line ends
  bool operator==(const MessageSummary&) const = default;
};

// The messages of `folder`, newest (highest UID) first; with `unread`, only unread (true) or read (false)
// ones. Reads headers only and changes no flag.
core::Result<std::vector<MessageSummary>> list_messages(const ImapAccount& account, Folder folder,
                                                        std::optional<bool> unread);

// The raw RFC 5322 message as IMAP serves it: the stored bytes with CRLF line ends (Dovecot stores LF and
// converts). Does not mark it read. `not_found` for an unknown UID.
core::Result<std::string> fetch_message(const ImapAccount& account, Folder folder, std::uint32_t uid);

// Sets \Seen. Marking a message that is already read succeeds. `not_found` for an unknown UID.
core::Status mark_read(const ImapAccount& account, Folder folder, std::uint32_t uid);

// Moves the message to Trash (IMAP MOVE, RFC 6851: it gets a new UID there and leaves `folder` at once).
// In Trash itself the message is deleted for good (\Deleted + UID EXPUNGE of that UID only), as mail
// clients do. `not_found` for an unknown UID.
core::Status move_to_trash(const ImapAccount& account, Folder folder, std::uint32_t uid);

// Stores `message` (raw RFC 5322 bytes, CRLF or LF line ends, no NUL) in `folder`, read or unread, and
// returns its UID (for example a copy of a sent mail in Sent). `over_quota` when the mailbox's quota
// cannot take it (Dovecot refuses before the bytes are sent); `imap_error` otherwise.
core::Result<std::uint32_t> append_message(const ImapAccount& account, Folder folder,
                                           std::string_view message, bool seen);

}  // namespace native::imap
