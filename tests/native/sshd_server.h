#pragma once
// A real OpenSSH server for tests (SERVICES.md, "SSH"): its own sshd_config, host key and authorized_keys
// in a fresh folder under /tmp, listening on 127.0.0.1 and a free port, public key login only (root
// included: `PermitRootLogin prohibit-password`). Nothing in /etc is read or changed; /run/sshd (sshd's
// privilege separation folder) is created if missing. Needs root, as sshd does. No doctest here.

#include <memory>
#include <string>

#include "tests/native/child_process.h"

namespace test_ssh {

// A key pair made by ssh-keygen: the private key file's text and the public key line.
struct KeyPair {
  std::string privateKey;
  std::string publicKeyLine;
  std::string fingerprint;  // `SHA256:...` as `ssh-keygen -lf` prints it
};

// Runs `ssh-keygen -t <type> [-m PEM] -N <passphrase>` into `path` (and `path`.pub). Empty privateKey,
// with the reason in `failure`, when ssh-keygen fails.
KeyPair generate_key(const std::string& path, const std::string& type, const std::string& passphrase,
                     bool pem_format, std::string& failure);

class SshdServer {
 public:
  // Generates the host key, writes the configuration, starts `sshd -D -e` and waits until the port sends
  // the SSH banner. Null, with the reason (and the end of sshd's log) in `failure`, when it cannot start.
  static std::unique_ptr<SshdServer> start(std::string& failure);
  ~SshdServer();  // stops sshd and removes the folder
  SshdServer(const SshdServer&) = delete;
  SshdServer& operator=(const SshdServer&) = delete;

  int port() const { return port_; }
  const std::string& dir() const { return dir_; }  // the server's folder
  const std::string& host_key_fingerprint() const { return host_fingerprint_; }
  const std::string& user() const { return user_; }  // the user the tests log in as
  // Adds a public key line to authorized_keys (read by sshd at each login).
  void authorize(const std::string& public_key_line);
  std::string log_tail() const;

 private:
  SshdServer() = default;
  std::string dir_;
  std::string user_;
  std::string host_fingerprint_;
  int port_ = 0;
  std::unique_ptr<test_process::ChildProcess> sshd_;
};

}  // namespace test_ssh
