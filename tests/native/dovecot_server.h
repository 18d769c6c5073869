#pragma once
// A real Dovecot for tests (SERVICES.md, "IMAP"): the platform's own layout and dovecot.conf
// (native/imap/dovecot_config.h) in a fresh folder under /tmp, IMAP on 127.0.0.1 and a free port, a master
// user with a random password, mail folders owned by nobody:nogroup. Needs root, as Dovecot does to start.

#include <sys/types.h>

#include <memory>
#include <string>

#include "native/imap/dovecot_config.h"
#include "native/imap/imap_client.h"
#include "tests/native/child_process.h"

namespace test_imap {

// What dovecot-lda said about one delivery.
struct Delivery {
  // 0 delivered, 77 refused for good (over quota, unknown user), 75 try again later; as
  // test_process::RunResult for a child that could not start or was killed.
  int exit_code = -1;
  std::string output;  // its stderr: the refusal reason
};

class DovecotServer {
 public:
  // Installs the layout, writes the master user and an empty users file, starts `dovecot -F` and waits
  // until the IMAP port greets. Null, with the reason (and the end of Dovecot's log) in `failure`, when it
  // cannot be started.
  static std::unique_ptr<DovecotServer> start(std::string& failure);

  // SIGTERM, up to 5 s for Dovecot to exit, then SIGKILL; removes the folder. Dovecot also dies with the
  // thread that started it (test_process::ChildProcess).
  ~DovecotServer();
  DovecotServer(const DovecotServer&) = delete;
  DovecotServer& operator=(const DovecotServer&) = delete;

  const native::imap::DovecotLayout& layout() const { return layout_; }
  native::imap::DovecotPaths paths() const { return native::imap::dovecot_paths(layout_); }
  int port() const { return layout_.imap_port; }
  pid_t pid() const { return dovecot_ ? dovecot_->pid() : -1; }
  bool running() const;  // the master process has not exited

  static constexpr const char* kMasterUser = "platform";
  // The platform's account for reading `address` (master login and password).
  native::imap::ImapAccount account(const std::string& address) const;

  // Delivers `raw_message` to `address` the way a mail server would: dovecot-lda with -e (a refusal is an
  // exit status and a reason on stderr instead of a bounce), so quota and unknown users apply.
  Delivery deliver(const std::string& address, const std::string& raw_message,
                   const std::string& sender = "sender@example.org") const;

  // Dovecot's log, and its last 2000 bytes for failure messages.
  std::string log() const;
  std::string log_tail() const;

  // Sleeps past the next whole second. Dovecot looks at a passwd-file at most once a second, so a file
  // written before this call is in effect after it.
  static void wait_for_passwd_reload();

 private:
  DovecotServer() = default;
  native::imap::DovecotLayout layout_;
  std::string master_password_;
  std::unique_ptr<test_process::ChildProcess> dovecot_;
};

}  // namespace test_imap
