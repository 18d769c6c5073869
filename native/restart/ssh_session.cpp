#include "native/restart/ssh_session.h"

#include <algorithm>

namespace native::restart {
namespace {

using Clock = std::chrono::steady_clock;

// libssh initialises itself when loaded as a shared library; the explicit call (reference counted, never
// undone) keeps that true for a static link too.
void ssh_ready() {
  static const int ready = ssh_init();
  (void)ready;
}

// What is left of the deadline in whole milliseconds, rounded up: a deadline is only passed once it has
// been reached, never a fraction of a millisecond early.
std::chrono::milliseconds remaining(Deadline deadline) {
  return std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
}

struct ChannelFree {
  void operator()(ssh_channel channel) const { ssh_channel_free(channel); }
};

void append_bounded(std::string& out, const char* data, int n) {
  const std::size_t room = kMaxCommandOutputBytes - std::min(out.size(), kMaxCommandOutputBytes);
  out.append(data, std::min(room, static_cast<std::size_t>(n)));
}

}  // namespace

std::unique_ptr<SshPrivateKey> SshPrivateKey::import(const std::string& pem, const std::string& passphrase) {
  ssh_ready();
  ssh_key key = nullptr;
  // No auth callback: an encrypted key without (the right) passphrase fails instead of prompting.
  const int rc = ssh_pki_import_privkey_base64(pem.c_str(), passphrase.empty() ? nullptr : passphrase.c_str(),
                                               nullptr, nullptr, &key);
  if (rc != SSH_OK || key == nullptr) return nullptr;
  return std::unique_ptr<SshPrivateKey>(new SshPrivateKey(key));
}

SshPrivateKey::~SshPrivateKey() {
  ssh_key_free(key_);
}

SshSession::SshSession() {
  ssh_ready();
  session_ = ssh_new();
}

SshSession::~SshSession() {
  if (session_ == nullptr) return;
  // Closing must not hang on a dead peer: one more second at most.
  long seconds = 1;
  long usec = 0;
  ssh_options_set(session_, SSH_OPTIONS_TIMEOUT, &seconds);
  ssh_options_set(session_, SSH_OPTIONS_TIMEOUT_USEC, &usec);
  ssh_disconnect(session_);
  ssh_free(session_);
}

bool SshSession::set_timeout(Deadline deadline) {
  const auto left = remaining(deadline).count();
  if (left <= 0) return false;
  // libssh adds the two options; each step of a firing gets what is left of the deadline.
  long seconds = static_cast<long>(left / 1000);
  long usec = static_cast<long>(left % 1000) * 1000;
  return ssh_options_set(session_, SSH_OPTIONS_TIMEOUT, &seconds) == SSH_OK &&
         ssh_options_set(session_, SSH_OPTIONS_TIMEOUT_USEC, &usec) == SSH_OK;
}

SshFailure SshSession::failure_from_session(Deadline deadline, const char* step) {
  SshFailure failure;
  const char* text = ssh_get_error(session_);
  const std::string reason = text != nullptr && *text != '\0' ? text : "no reason given";
  // libssh's own timeouts end at the deadline, give or take the rounding to milliseconds.
  failure.timeout = remaining(deadline).count() <= 5 || reason.find("imeout") != std::string::npos ||
                    reason.find("timed out") != std::string::npos;
  failure.reason = std::string(step) + ": " + reason;
  return failure;
}

bool SshSession::connect(const std::string& host, int port, const std::string& user, Deadline deadline,
                         SshFailure& failure) {
  if (session_ == nullptr) {
    failure = {false, "libssh could not make a session"};
    return false;
  }
  // Nothing from ~/.ssh or /etc/ssh: no config file (it could add a ProxyCommand or another user) and no
  // known_hosts file (the pin in the target is the only host key policy).
  const bool process_config = false;
  const int verbosity = SSH_LOG_NOLOG;
  if (ssh_options_set(session_, SSH_OPTIONS_PROCESS_CONFIG, &process_config) != SSH_OK ||
      ssh_options_set(session_, SSH_OPTIONS_LOG_VERBOSITY, &verbosity) != SSH_OK ||
      ssh_options_set(session_, SSH_OPTIONS_KNOWNHOSTS, "/dev/null") != SSH_OK ||
      ssh_options_set(session_, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null") != SSH_OK ||
      ssh_options_set(session_, SSH_OPTIONS_HOST, host.c_str()) != SSH_OK ||
      ssh_options_set(session_, SSH_OPTIONS_PORT, &port) != SSH_OK ||
      ssh_options_set(session_, SSH_OPTIONS_USER, user.c_str()) != SSH_OK) {
    failure = failure_from_session(deadline, "settings refused");
    failure.timeout = false;
    return false;
  }
  const std::string step = "connect to " + host + " port " + std::to_string(port);
  if (!set_timeout(deadline)) {
    failure = {true, step + ": deadline passed"};
    return false;
  }
  if (ssh_connect(session_) != SSH_OK) {
    failure = failure_from_session(deadline, step.c_str());
    return false;
  }
  return true;
}

std::string SshSession::host_key_fingerprint() {
  ssh_key key = nullptr;
  if (ssh_get_server_publickey(session_, &key) != SSH_OK || key == nullptr) return {};
  unsigned char* hash = nullptr;
  size_t length = 0;
  const int rc = ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length);
  ssh_key_free(key);
  if (rc != SSH_OK || hash == nullptr) return {};
  char* text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
  ssh_clean_pubkey_hash(&hash);
  if (text == nullptr) return {};
  std::string fingerprint(text);
  ssh_string_free_char(text);
  return fingerprint;
}

bool SshSession::authenticate(const SshPrivateKey& key, Deadline deadline, SshFailure& failure) {
  if (!set_timeout(deadline)) {
    failure = {true, "authentication: deadline passed"};
    return false;
  }
  switch (ssh_userauth_publickey(session_, nullptr, key.handle())) {
    case SSH_AUTH_SUCCESS:
      return true;
    case SSH_AUTH_DENIED:
      failure = {false, "authentication refused: the server did not accept the key"};
      return false;
    case SSH_AUTH_PARTIAL:
      failure = {false, "authentication incomplete: the server asks for more than the key"};
      return false;
    default:
      failure = failure_from_session(deadline, "authentication");
      return false;
  }
}

bool SshSession::run(const std::string& command, Deadline deadline, CommandRun& run, SshFailure& failure) {
  std::unique_ptr<ssh_channel_struct, ChannelFree> channel(ssh_channel_new(session_));
  if (channel == nullptr) {
    failure = failure_from_session(deadline, "channel");
    return false;
  }
  ssh_channel ch = channel.get();
  if (!set_timeout(deadline)) {
    failure = {true, "channel: deadline passed"};
    return false;
  }
  if (ssh_channel_open_session(ch) != SSH_OK) {
    failure = failure_from_session(deadline, "channel");
    return false;
  }
  if (ssh_channel_request_exec(ch, command.c_str()) != SSH_OK) {
    failure = failure_from_session(deadline, "exec");
    return false;
  }
  char buffer[16 * 1024];
  // Waits on stdout in short slices and takes whatever stderr has gathered in between, so a command that
  // writes only to stderr is read too and the deadline is looked at often.
  while (true) {
    const auto left = remaining(deadline).count();
    if (left <= 0) {
      failure = {true, "the command did not finish"};
      return false;
    }
    const int slice = static_cast<int>(std::min<long long>(left, 200));
    const int n = ssh_channel_read_timeout(ch, buffer, sizeof buffer, 0, slice);
    if (n == SSH_ERROR) {
      failure = failure_from_session(deadline, "reading output");
      return false;
    }
    if (n > 0) append_bounded(run.stdoutText, buffer, n);
    int e = 0;
    while ((e = ssh_channel_read_nonblocking(ch, buffer, sizeof buffer, 1)) > 0)
      append_bounded(run.stderrText, buffer, e);
    if (e == SSH_ERROR) {
      failure = failure_from_session(deadline, "reading output");
      return false;
    }
    if (ssh_channel_is_eof(ch)) break;
  }
  if (!set_timeout(deadline)) {
    failure = {true, "the command did not report its exit status"};
    return false;
  }
  // -1 both when no exit status came (the command was killed by a signal) and on a failure.
  run.exitStatus = ssh_channel_get_exit_status(ch);
  ssh_channel_close(ch);
  return true;
}

}  // namespace native::restart
