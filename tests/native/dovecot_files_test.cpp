// The files the platform writes for Dovecot (native/imap/dovecot_users.h, dovecot_config.h), checked on
// disk without a server: the passwd-file lines, what is refused, the atomic replacement's mode, group and
// mtime, and the layout's validation. The server suite (imap_client_test.cpp) shows Dovecot reading them.

#include <doctest/doctest.h>

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "native/crypto/password.h"
#include "native/imap/dovecot_config.h"
#include "native/imap/dovecot_users.h"
#include "temp_dir.h"

using native::imap::MailboxUser;

namespace {

const std::string kHash =
    "$argon2id$v=19$m=65536,t=2,p=1$WpTLxDYcQZpnMdMU3GdjeQ$jisAABLnBtKBPgOR5kV183YtQ1QY6iPH3cdR159NpD0";

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_CASE("the users file has one passwd-file line per mailbox with the argon2id hash and the quota") {
  store_test::TempDir dir;
  std::filesystem::create_directories(dir.path());
  std::string path = dir.str() + "/users";
  std::string hash = native::hash_password("secret");
  REQUIRE(hash.starts_with("$argon2id$v=19$"));
  auto written = native::imap::write_users_file(
      path, {{"alice@example.test", hash, 100}, {"bob.smith-2_x@mail.example.test", kHash, 5}});
  REQUIRE_MESSAGE(written.ok(), written.error().message);
  std::string content = read(path);
  CHECK(content ==
        "# Mailbox users, written by the platform (native/imap/dovecot_users.cpp).\n"
        "alice@example.test:{ARGON2ID}" +
            hash +
            "::::::userdb_quota_rule=*:storage=100M\n"
            "bob.smith-2_x@mail.example.test:{ARGON2ID}" +
            kHash + "::::::userdb_quota_rule=*:storage=5M\n");

  CHECK(native::imap::write_users_file(path, {}).ok());
  CHECK(read(path) == "# Mailbox users, written by the platform (native/imap/dovecot_users.cpp).\n");
}

TEST_CASE("the users file refuses ':' and line breaks, odd addresses, other hashes, bad quotas, duplicates") {
  store_test::TempDir dir;
  std::filesystem::create_directories(dir.path());
  std::string path = dir.str() + "/users";
  REQUIRE(native::imap::write_users_file(path, {{"keep@example.test", kHash, 1}}).ok());
  std::string before = read(path);

  std::vector<std::vector<MailboxUser>> refused = {
      {{"a:b@example.test", kHash, 1}},
      {{"alice@example.test\nroot@example.test", kHash, 1}},
      {{"alice@example.test\r", kHash, 1}},
      {{"alice@example.test", kHash + ":0:0", 1}},
      {{"alice@example.test", kHash + "\nbob@example.test:{PLAIN}x", 1}},
      {{"alice@example.test", "{PLAIN}secret", 1}},
      {{"alice@example.test", "$2y$10$abcdefghijklmnopqrstuv", 1}},
      {{"Alice@example.test", kHash, 1}},
      {{"alice", kHash, 1}},
      {{"a@b@example.test", kHash, 1}},
      {{"../x@example.test", kHash, 1}},
      {{".alice@example.test", kHash, 1}},
      {{"al..ice@example.test", kHash, 1}},
      {{"alice+tag@example.test", kHash, 1}},
      {{"alice@example..test", kHash, 1}},
      {{"alice@exa_mple.test", kHash, 1}},
      {{"alice*platform@example.test", kHash, 1}},
      {{"alice@example.test", kHash, 0}},
      {{"alice@example.test", kHash, -5}},
      {{"alice@example.test", kHash, (std::int64_t{1} << 20) + 1}},
      {{"alice@example.test", kHash, 1}, {"alice@example.test", kHash, 2}},
  };
  for (const auto& users : refused) {
    CAPTURE(users.back().address);
    CAPTURE(users.back().password_hash);
    auto result = native::imap::write_users_file(path, users);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == "invalid_mailbox_user");
  }
  CHECK(read(path) == before);  // nothing was written
  auto colon = native::imap::write_users_file(path, {{"a:b@example.test", kHash, 1}});
  CHECK(colon.error().message.find("':' or a line break") != std::string::npos);
}

TEST_CASE("the master file holds the one master user; its hash is argon2id at the minimum cost") {
  store_test::TempDir dir;
  std::filesystem::create_directories(dir.path());
  std::string path = dir.str() + "/master-users";
  std::string hash = native::imap::hash_master_password("a long random master password");
  CHECK(hash.starts_with("$argon2id$v=19$m=8,t=1,p=1$"));
  CHECK(native::verify_password(hash, "a long random master password"));
  REQUIRE(native::imap::write_master_file(path, "platform", hash).ok());
  CHECK(read(path) ==
        "# The platform's master user (native/imap/dovecot_users.cpp).\nplatform:{ARGON2ID}" + hash + "\n");
  CHECK(native::imap::write_master_file(path, "plat:form", hash).error().code == "invalid_mailbox_user");
  CHECK(native::imap::write_master_file(path, "platform\n", hash).error().code == "invalid_mailbox_user");
  CHECK(native::imap::write_master_file(path, "", hash).error().code == "invalid_mailbox_user");
  CHECK(native::imap::write_master_file(path, "platform", "{PLAIN}x").error().code == "invalid_mailbox_user");
  CHECK(native::imap::master_login("alice@example.test", "platform") == "alice@example.test*platform");
}

TEST_CASE("a replaced file has mode 0640, its folder's group, and an mtime a second past the old one") {
  store_test::TempDir dir;
  std::filesystem::create_directories(dir.path());
  group* dovecot = ::getgrnam("dovecot");
  REQUIRE(dovecot != nullptr);
  REQUIRE(::chown(dir.str().c_str(), static_cast<uid_t>(-1), dovecot->gr_gid) == 0);
  std::string path = dir.str() + "/users";

  // Same size each time (a password change keeps the length): only the mtime can tell Dovecot.
  struct stat previous {};
  for (int i = 0; i < 3; ++i) {
    REQUIRE(native::imap::write_users_file(path, {{"alice@example.test", kHash, 10 + i}}).ok());
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);
    CHECK(st.st_gid == dovecot->gr_gid);
    if (i > 0) {
      CHECK(st.st_size == previous.st_size);
      CHECK(st.st_mtime >= previous.st_mtime + 1);
      CHECK(st.st_ino != previous.st_ino);  // a new file renamed in, not rewritten in place
    }
    previous = st;
  }
  // No temporary file is left behind.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) files += entry.is_regular_file();
  CHECK(files == 1);
}

TEST_CASE("a users file in a missing folder is storage_error") {
  auto result =
      native::imap::write_users_file("/nonexistent-folder/users", {{"alice@example.test", kHash, 1}});
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == "storage_error");
}

TEST_CASE("the layout: derived paths, validation, and the settings dovecot.conf carries") {
  native::imap::DovecotLayout layout{.base_dir = "/srv/mail-platform",
                                     .listen_address = "127.0.0.1",
                                     .imap_port = 1143,
                                     .mail_uid = "vmail",
                                     .mail_gid = "vmail"};
  auto p = native::imap::dovecot_paths(layout);
  CHECK(p.users_file == "/srv/mail-platform/auth/users");
  CHECK(p.master_users_file == "/srv/mail-platform/auth/master-users");
  CHECK(p.mail_root == "/srv/mail-platform/mail");
  CHECK(native::imap::maildir_path(layout, "alice@example.test") ==
        "/srv/mail-platform/mail/example.test/alice/Maildir");
  CHECK(native::imap::validate_layout(layout).ok());

  std::string conf = native::imap::dovecot_conf(layout);
  for (std::string expected : {
           "base_dir = /srv/mail-platform/run\n",
           "state_dir = /srv/mail-platform/state\n",
           "log_path = /srv/mail-platform/log/dovecot.log\n",
           "listen = 127.0.0.1\n",
           "auth_master_user_separator = *\n",
           "  args = /srv/mail-platform/auth/master-users\n  master = yes\n",
           "  args = /srv/mail-platform/auth/users\n",
           "  default_fields = uid=vmail gid=vmail home=/srv/mail-platform/mail/%d/%n\n",
           "mail_location = maildir:/srv/mail-platform/mail/%d/%n/Maildir\n",
           "  quota = maildir:User quota\n",
           "  mailbox Sent {\n    auto = create\n    special_use = \\Sent\n",
           "  mailbox Trash {\n    auto = create\n    special_use = \\Trash\n",
           "    address = 127.0.0.1\n    port = 1143\n",
           "  unix_listener anvil-auth-penalty {\n    mode = 0\n",
       }) {
    CAPTURE(expected);
    CHECK(conf.find(expected) != std::string::npos);
  }
  layout.login_penalty = true;
  CHECK(native::imap::dovecot_conf(layout).find("anvil-auth-penalty") == std::string::npos);

  auto refused = [](native::imap::DovecotLayout bad) {
    auto status = native::imap::validate_layout(bad);
    return !status.ok() && status.error().code == "invalid_dovecot_layout";
  };
  auto with = [&](auto change) {
    auto copy = layout;
    change(copy);
    return copy;
  };
  CHECK(refused(with([](auto& l) { l.base_dir = "relative/dir"; })));
  CHECK(refused(with([](auto& l) { l.base_dir = "/srv/mail/"; })));
  CHECK(refused(with([](auto& l) { l.base_dir = "/srv/mail platform"; })));
  CHECK(refused(with([](auto& l) { l.base_dir = "/srv/mail\nbase_dir = /"; })));
  CHECK(refused(with([](auto& l) { l.base_dir = "/" + std::string(64, 'x'); })));
  CHECK(refused(with([](auto& l) { l.listen_address = "127.0.0.1\nlisten = *"; })));
  CHECK(refused(with([](auto& l) { l.imap_port = 0; })));
  CHECK(refused(with([](auto& l) { l.imap_port = 65536; })));
  CHECK(refused(with([](auto& l) { l.mail_uid = "root"; })));
  CHECK(refused(with([](auto& l) { l.mail_gid = "0"; })));
  CHECK(refused(with([](auto& l) { l.mail_uid = ""; })));
  CHECK(refused(with([](auto& l) { l.dovecot_user = "dove cot"; })));
  CHECK(refused(with([](auto& l) { l.max_sessions_per_mailbox = 0; })));
}
