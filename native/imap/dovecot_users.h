#pragma once
// The passwd-files Dovecot authenticates against (dovecot_config.h lays them out): one line per mailbox,
//   <address>:{ARGON2ID}<libsodium crypt string>::::::userdb_quota_rule=*:storage=<quota>M
// and the master user the platform logs in as for every mailbox (`<address>*<master user>`). Dovecot's
// ARGON2ID scheme verifies libsodium's `$argon2id$v=19$...` strings as they are, so the hash the platform
// stores for a mailbox's password goes into the file unchanged. Dovecot re-reads a passwd-file when its
// mtime (whole seconds) or size changed, checking at most once a second: a change applies to logins from
// the next second on, without a restart. See docs/mailboxes.md.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace native::imap {

struct MailboxUser {
  // Lower case `local@domain`: the local part letters, digits and `._-` (no leading, trailing or double
  // dot), the domain dot-separated labels of letters, digits and `-`. Dovecot lower-cases login names
  // (auth_username_format = %Lu) and accepts only these characters (auth_username_chars), and the parts
  // become folder names (`<mail_root>/<domain>/<local>`), so nothing else is written.
  std::string address;
  std::string password_hash;  // argon2id crypt string: `$argon2id$v=19$m=...,t=...,p=...$<salt>$<hash>`
  std::int64_t quota_mb = 0;  // 1..1048576 (1 TiB)
};

// Replaces the users file with exactly `users` (a snapshot: a mailbox missing from it can no longer log
// in). Atomic (temporary file, fsync, rename), mode 0640 with the group of its folder, mtime moved on
// (atomic_file.h). Callers serialize writes. Errors: `invalid_mailbox_user` naming the address and the
// rule (address or hash with a character the format cannot carry, such as `:` or a line break; a hash that
// is not argon2id; quota out of range; an address listed twice), and nothing is written; `storage_error`.
core::Status write_users_file(const std::string& path, const std::vector<MailboxUser>& users);

// Replaces the master-users file with the one master user (letters, digits, `._-`) and its argon2id
// hash (see hash_master_password). Same atomicity and errors as write_users_file.
core::Status write_master_file(const std::string& path, const std::string& master_user,
                               const std::string& master_password_hash);

// An argon2id crypt string of the master password with libsodium's minimum cost (1 pass, 8 KiB). The
// master password is a random secret of 32 bytes or more, which no amount of hashing cost makes harder
// to guess, while Dovecot verifies it on every platform login: the interactive cost (64 MiB) adds about
// 40 ms to each. Empty only when memory cannot be had.
std::string hash_master_password(std::string_view password);

// The login name for reading `address` as `master_user`: "<address>*<master user>".
std::string master_login(std::string_view address, std::string_view master_user);

}  // namespace native::imap
