#pragma once
// Dovecot as the server of the platform's mailboxes (issue 12): the folder layout under one base directory
// and the complete dovecot.conf the platform writes for it. Mailbox users come from a passwd-file the
// platform rewrites (dovecot_users.h); the platform itself logs in as a master user. Decisions and the
// Dovecot 2.3 facts behind them (checked on Debian 12): docs/mailboxes.md.

#include <string>
#include <string_view>

#include "core/result.h"

namespace native::imap {

struct DovecotLayout {
  // Absolute, at most 64 bytes: Dovecot's UNIX sockets live under it and socket paths are short. Only
  // letters, digits and `/._-`, as in every other path and name here: they go into dovecot.conf verbatim.
  std::string base_dir;
  std::string listen_address = "127.0.0.1";  // IPv4 or IPv6 address, or `*`
  int imap_port = 143;
  // Owner of the mail folders, names or numbers. Never root: Dovecot refuses mail access as root. Use a
  // user of its own (`vmail`) in production; `nobody`/`nogroup` in tests.
  std::string mail_uid;
  std::string mail_gid;
  // Dovecot's internal user (default_internal_user): its auth process reads the passwd-files through the
  // group of this user's primary group.
  std::string dovecot_user = "dovecot";
  // Dovecot's growing delay per client address after failed logins (2, 4, 8, 15 s). Off by default: the
  // platform's calls all come from one address, so one failed login (a mailbox deleted while a request
  // ran) would slow every mailbox. Turn it on when mail clients of end users can reach the port. The
  // fixed 2 s delay before a refusal (auth_failure_delay) stays either way.
  bool login_penalty = false;
  // Concurrent IMAP sessions per mailbox and client address (mail_max_userip_connections; Dovecot's
  // default of 10 would refuse the 11th parallel platform request on one mailbox).
  int max_sessions_per_mailbox = 50;
};

// Where everything lives, derived from base_dir.
struct DovecotPaths {
  std::string config_file;        // <base>/dovecot.conf
  std::string auth_dir;           // <base>/auth: the passwd-files, group of dovecot_user, mode 2750
  std::string users_file;         // <base>/auth/users
  std::string master_users_file;  // <base>/auth/master-users
  std::string mail_root;          // <base>/mail: <domain>/<local part>/Maildir, owned by mail_uid
  std::string run_dir;            // <base>/run: Dovecot's base_dir (sockets, pid file)
  std::string state_dir;          // <base>/state
  std::string log_file;           // <base>/log/dovecot.log
};

DovecotPaths dovecot_paths(const DovecotLayout& layout);

// `invalid_dovecot_layout` naming the field: base_dir not absolute, too long or with other characters,
// an address, port, user or group that is empty or holds characters a config value cannot carry, root as
// mail user, max_sessions_per_mailbox < 1.
core::Status validate_layout(const DovecotLayout& layout);

// The complete dovecot.conf. Precondition: validate_layout(layout) succeeded.
std::string dovecot_conf(const DovecotLayout& layout);

// The Maildir of a mailbox, `<mail_root>/<domain>/<local part>/Maildir` (Dovecot's %d and %n). The address
// must be one write_users_file accepts.
std::string maildir_path(const DovecotLayout& layout, std::string_view address);

// Creates the folders of dovecot_paths with their owners and modes, empty passwd-files when there are none,
// and (re)writes dovecot.conf; Dovecot is then started with `dovecot -c <config_file>`. Changing ownership
// needs root, as starting Dovecot does. Idempotent. Errors: `invalid_dovecot_layout`, `storage_error`
// (including unknown users or groups).
core::Status install_dovecot_layout(const DovecotLayout& layout);

}  // namespace native::imap
