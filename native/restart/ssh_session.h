#pragma once
// The steps of one SSH restart over libssh, each bounded by a deadline shared by the whole firing. The
// policy (which host keys to accept, what counts as success) is ssh_target.cpp's; this file only speaks
// the protocol. No configuration file, known_hosts file, agent or key file is read: everything the
// session needs comes from the target, and the private key stays in memory.

#include <libssh/libssh.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

namespace native::restart {

using Deadline = std::chrono::steady_clock::time_point;

// A step that did not complete: `timeout` when the deadline passed, otherwise `error` with libssh's reason.
struct SshFailure {
  bool timeout = false;
  std::string reason;
};

struct CommandRun {
  int exitStatus = -1;     // -1 when the command ended without one (killed by a signal)
  std::string stdoutText;  // the first kMaxCommandOutputBytes of each stream; the rest is read and dropped
  std::string stderrText;
};

inline constexpr std::size_t kMaxCommandOutputBytes = 64 * 1024;

// A private key imported from PEM text in memory (ssh_pki_import_privkey_base64).
class SshPrivateKey {
 public:
  // Null when the text is not a key libssh reads, or the key is encrypted and the passphrase is missing
  // or wrong. A passphrase given for a key that is not encrypted is ignored.
  static std::unique_ptr<SshPrivateKey> import(const std::string& pem, const std::string& passphrase);
  ~SshPrivateKey();
  SshPrivateKey(const SshPrivateKey&) = delete;
  SshPrivateKey& operator=(const SshPrivateKey&) = delete;
  ssh_key handle() const { return key_; }

 private:
  explicit SshPrivateKey(ssh_key key) : key_(key) {}
  ssh_key key_;
};

class SshSession {
 public:
  SshSession();
  ~SshSession();  // disconnects
  SshSession(const SshSession&) = delete;
  SshSession& operator=(const SshSession&) = delete;

  // TCP connect and key exchange. Returns false with `failure` filled.
  bool connect(const std::string& host, int port, const std::string& user, Deadline deadline,
               SshFailure& failure);

  // The server's host key as `ssh-keygen -lf` prints it (`SHA256:` + unpadded base64); empty on failure.
  std::string host_key_fingerprint();

  // Public key authentication with `key`. False with `failure` when refused or failed.
  bool authenticate(const SshPrivateKey& key, Deadline deadline, SshFailure& failure);

  // Runs `command` on a session channel, reads both streams to their end and takes the exit status.
  bool run(const std::string& command, Deadline deadline, CommandRun& run, SshFailure& failure);

 private:
  bool set_timeout(Deadline deadline);
  SshFailure failure_from_session(Deadline deadline, const char* step);
  ssh_session session_;
};

}  // namespace native::restart
