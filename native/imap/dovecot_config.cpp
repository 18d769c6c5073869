#include "native/imap/dovecot_config.h"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <filesystem>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <vector>

#include "native/imap/atomic_file.h"

namespace native::imap {
namespace {

// Unix sockets allow 108 bytes; Dovecot's longest socket name under its base_dir is about 30.
constexpr std::size_t kMaxBaseDir = 64;

core::Error invalid(std::string_view field, std::string_view why) {
  return core::make_error("invalid_dovecot_layout", std::string(field) + " " + std::string(why));
}

bool only(std::string_view text, std::string_view extra) {
  for (char c : text) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && extra.find(c) == std::string_view::npos) return false;
  }
  return !text.empty();
}

std::optional<unsigned> numeric(std::string_view text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

core::Error storage_error(std::string_view what, const std::string& path, int err) {
  return core::make_error("storage_error",
                          "cannot " + std::string(what) + " " + path + ": " + std::strerror(err));
}

core::Result<uid_t> user_id(const std::string& name) {
  if (auto n = numeric(name)) return static_cast<uid_t>(*n);
  std::vector<char> buffer(16384);
  passwd entry{};
  passwd* found = nullptr;
  if (::getpwnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr)
    return core::make_error("storage_error", "unknown user " + name);
  return found->pw_uid;
}

core::Result<gid_t> primary_group(const std::string& user) {
  std::vector<char> buffer(16384);
  passwd entry{};
  passwd* found = nullptr;
  if (::getpwnam_r(user.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr)
    return core::make_error("storage_error", "unknown user " + user);
  return found->pw_gid;
}

core::Result<gid_t> group_id(const std::string& name) {
  if (auto n = numeric(name)) return static_cast<gid_t>(*n);
  std::vector<char> buffer(16384);
  group entry{};
  group* found = nullptr;
  if (::getgrnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr)
    return core::make_error("storage_error", "unknown group " + name);
  return found->gr_gid;
}

// mkdir, then the exact owner and mode whether the folder was new or not.
core::Status make_dir(const std::string& path, uid_t uid, gid_t gid, mode_t mode) {
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) return storage_error("create", path, errno);
  if (::chown(path.c_str(), uid, gid) != 0) return storage_error("change the owner of", path, errno);
  if (::chmod(path.c_str(), mode) != 0) return storage_error("change the mode of", path, errno);
  return {};
}

core::Status ensure_file(const std::string& path, mode_t mode) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return {};
  return replace_file(path, "", mode);
}

}  // namespace

DovecotPaths dovecot_paths(const DovecotLayout& layout) {
  const std::string& b = layout.base_dir;
  return DovecotPaths{
      .config_file = b + "/dovecot.conf",
      .auth_dir = b + "/auth",
      .users_file = b + "/auth/users",
      .master_users_file = b + "/auth/master-users",
      .mail_root = b + "/mail",
      .run_dir = b + "/run",
      .state_dir = b + "/state",
      .log_file = b + "/log/dovecot.log",
  };
}

core::Status validate_layout(const DovecotLayout& layout) {
  const std::string& base = layout.base_dir;
  if (!base.starts_with('/') || base.size() < 2 || base.ends_with('/'))
    return invalid("base_dir", "must be an absolute path without a trailing slash");
  if (base.size() > kMaxBaseDir) return invalid("base_dir", "must be at most 64 bytes");
  if (!only(base, "/._-") || base.find("/../") != std::string::npos || base.ends_with("/.."))
    return invalid("base_dir", "may hold only letters, digits and /._-");
  if (layout.listen_address != "*" && !only(layout.listen_address, ".:"))
    return invalid("listen_address", "must be an IP address or *");
  if (layout.imap_port < 1 || layout.imap_port > 65535) return invalid("imap_port", "must be 1..65535");
  for (auto [field, value] : {std::pair<const char*, const std::string*>{"mail_uid", &layout.mail_uid},
                              {"mail_gid", &layout.mail_gid},
                              {"dovecot_user", &layout.dovecot_user}})
    if (!only(*value, "._-")) return invalid(field, "must be a user or group name or number");
  if (layout.mail_uid == "root" || layout.mail_uid == "0" || layout.mail_gid == "root" ||
      layout.mail_gid == "0")
    return invalid("mail_uid", "must not be root: Dovecot refuses mail access as root");
  if (layout.max_sessions_per_mailbox < 1) return invalid("max_sessions_per_mailbox", "must be at least 1");
  return {};
}

std::string dovecot_conf(const DovecotLayout& layout) {
  DovecotPaths p = dovecot_paths(layout);
  std::string listen = layout.listen_address;
  std::string port = std::to_string(layout.imap_port);
  std::string conf;
  conf += "# Written by the platform (native/imap/dovecot_config.cpp); rewritten on every install.\n";
  conf += "# What each setting is for: docs/mailboxes.md.\n";
  conf += "base_dir = " + p.run_dir + "\n";
  conf += "state_dir = " + p.state_dir + "\n";
  conf += "log_path = " + p.log_file + "\n";
  conf += "instance_name = platform-mail\n";
  conf += "protocols = imap\n";
  conf += "listen = " + listen + "\n";
  conf += "ssl = no\n";
  conf += "disable_plaintext_auth = no\n";
  conf += "default_internal_user = " + layout.dovecot_user + "\n";
  conf += "first_valid_uid = 1\n";  // system users (vmail) have small ids; root stays refused
  conf += "first_valid_gid = 1\n";
  conf += "\n# Mailbox users log in as their address; the platform as <address>*<master user>.\n";
  conf += "auth_mechanisms = plain login\n";
  conf += "auth_username_format = %Lu\n";
  conf += "auth_username_chars = abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_@\n";
  conf += "auth_master_user_separator = *\n";
  conf += "passdb {\n";
  conf += "  driver = passwd-file\n";
  conf += "  args = " + p.master_users_file + "\n";
  conf += "  master = yes\n";
  conf += "  pass = yes\n";  // the mailbox must also exist in the users passdb
  conf += "}\n";
  conf += "passdb {\n";
  conf += "  driver = passwd-file\n";
  conf += "  args = " + p.users_file + "\n";
  conf += "}\n";
  conf += "userdb {\n";
  conf += "  driver = passwd-file\n";
  conf += "  args = " + p.users_file + "\n";
  conf += "  default_fields = uid=" + layout.mail_uid + " gid=" + layout.mail_gid + " home=" + p.mail_root +
          "/%d/%n\n";
  conf += "}\n";
  conf += "\n# Maildir per mailbox; quota from each user's quota_rule (the users file).\n";
  conf += "mail_location = maildir:" + p.mail_root + "/%d/%n/Maildir\n";
  conf += "mail_plugins = $mail_plugins quota\n";
  conf += "namespace inbox {\n";
  conf += "  inbox = yes\n";
  conf += "  mailbox Sent {\n";
  conf += "    auto = create\n";
  conf += "    special_use = \\Sent\n";
  conf += "  }\n";
  conf += "  mailbox Trash {\n";
  conf += "    auto = create\n";
  conf += "    special_use = \\Trash\n";
  conf += "  }\n";
  conf += "}\n";
  conf += "plugin {\n";
  conf += "  quota = maildir:User quota\n";
  conf += "  quota_grace = 10%%\n";  // Dovecot's default, written down: the last message may pass by 10%
  conf += "}\n";
  conf += "protocol imap {\n";
  conf += "  mail_plugins = $mail_plugins imap_quota\n";
  conf += "  mail_max_userip_connections = " + std::to_string(layout.max_sessions_per_mailbox) + "\n";
  conf += "}\n";
  conf += "\nservice imap-login {\n";
  conf += "  inet_listener imap {\n";
  conf += "    address = " + listen + "\n";
  conf += "    port = " + port + "\n";
  conf += "  }\n";
  conf += "  inet_listener imaps {\n";
  conf += "    port = 0\n";
  conf += "  }\n";
  conf += "}\n";
  if (!layout.login_penalty) {
    conf += "# No per-address login penalty: the auth process cannot reach anvil's penalty socket.\n";
    conf += "service anvil {\n";
    conf += "  unix_listener anvil-auth-penalty {\n";
    conf += "    mode = 0\n";
    conf += "  }\n";
    conf += "}\n";
  }
  return conf;
}

std::string maildir_path(const DovecotLayout& layout, std::string_view address) {
  auto at = address.rfind('@');
  std::string_view local = address.substr(0, at);
  std::string_view domain = at == std::string_view::npos ? std::string_view() : address.substr(at + 1);
  return dovecot_paths(layout).mail_root + "/" + std::string(domain) + "/" + std::string(local) + "/Maildir";
}

core::Status install_dovecot_layout(const DovecotLayout& layout) {
  CORE_TRY(validate_layout(layout));
  auto mail_uid = user_id(layout.mail_uid);
  if (!mail_uid.ok()) return mail_uid.error();
  auto mail_gid = group_id(layout.mail_gid);
  if (!mail_gid.ok()) return mail_gid.error();
  auto auth_gid = primary_group(layout.dovecot_user);
  if (!auth_gid.ok()) return auth_gid.error();
  if (*mail_uid == 0 || *mail_gid == 0) return invalid("mail_uid", "must not be root");

  DovecotPaths p = dovecot_paths(layout);
  uid_t me = ::geteuid();
  gid_t my_group = ::getegid();
  // Missing parents are created too (an operator names a fresh folder).
  std::error_code ec;
  std::filesystem::create_directories(layout.base_dir, ec);
  if (ec) return storage_error("create", layout.base_dir, ec.value());
  // Dovecot's unprivileged processes must be able to pass through the base folder.
  CORE_TRY(make_dir(layout.base_dir, me, my_group, 0755));
  CORE_TRY(make_dir(p.auth_dir, me, *auth_gid, 02750));
  CORE_TRY(make_dir(p.mail_root, *mail_uid, *mail_gid, 0700));
  CORE_TRY(make_dir(p.run_dir, me, my_group, 0755));
  CORE_TRY(make_dir(p.state_dir, me, my_group, 0755));
  CORE_TRY(make_dir(layout.base_dir + "/log", me, my_group, 0750));
  CORE_TRY(ensure_file(p.users_file, 0640));
  CORE_TRY(ensure_file(p.master_users_file, 0640));
  return replace_file(p.config_file, dovecot_conf(layout), 0644);
}

}  // namespace native::imap
