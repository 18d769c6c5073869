#include "native/restart/ssh_target.h"

#include "native/restart/detail_text.h"
#include "native/restart/elapsed.h"
#include "native/restart/ssh_session.h"

namespace native::restart {
namespace {

// The last non-blank line of a command's output, for a short failure detail.
std::string_view last_line(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.remove_suffix(1);
  const auto newline = text.find_last_of('\n');
  return newline == std::string_view::npos ? text : text.substr(newline + 1);
}

std::string failure_detail(const SshFailure& failure, int timeout_ms) {
  if (failure.timeout)
    return "timed out after " + std::to_string(timeout_ms) + " ms (" + failure.reason + ")";
  return failure.reason;
}

}  // namespace

RestartOutcome fire_ssh(const core::status::SshRestartTarget& target) {
  const auto start = std::chrono::steady_clock::now();
  const Deadline deadline = start + std::chrono::milliseconds(target.timeoutMs);
  RestartOutcome outcome;
  const auto finish = [&](std::string text) {
    outcome.detail = detail_text(text, {target.passphrase, target.privateKeyPem});
    outcome.durationMs = elapsed_ms(start);
    return outcome;
  };
  if (auto valid = core::status::validate_ssh_restart_target(target); !valid)
    return finish("invalid target: " + valid.error().code);

  // Before any network traffic: a key that does not open fails the same way whatever the server says.
  const auto key = SshPrivateKey::import(target.privateKeyPem, target.passphrase);
  if (key == nullptr)
    return finish(
        target.passphrase.empty()
            ? "private key could not be read (not a supported key, or encrypted and no passphrase given)"
            : "private key could not be read (wrong passphrase, or not a supported key)");

  SshSession session;
  SshFailure failure;
  if (!session.connect(target.host, target.port, target.user, deadline, failure))
    return finish(failure_detail(failure, target.timeoutMs));

  outcome.hostKeyFingerprint = session.host_key_fingerprint();
  if (outcome.hostKeyFingerprint.empty()) return finish("the server's host key could not be read");
  if (!target.hostKeyFingerprint.empty()) {
    if (outcome.hostKeyFingerprint != target.hostKeyFingerprint)
      return finish("host key changed: expected " + target.hostKeyFingerprint + ", got " +
                    outcome.hostKeyFingerprint);
  } else if (target.trustOnFirstUse) {
    outcome.hostKeyLearned = true;
  } else {
    return finish("unknown host key " + outcome.hostKeyFingerprint);
  }

  if (!session.authenticate(*key, deadline, failure))
    return finish(failure_detail(failure, target.timeoutMs));
  CommandRun run;
  if (!session.run(target.command, deadline, run, failure))
    return finish(failure_detail(failure, target.timeoutMs));
  if (run.exitStatus < 0) return finish("no exit status (the command was killed or the session failed)");
  outcome.exitStatus = run.exitStatus;
  outcome.ok = run.exitStatus == 0;
  std::string text = "exit status " + std::to_string(run.exitStatus);
  if (!outcome.ok) {
    std::string_view line = last_line(run.stderrText);
    if (line.empty()) line = last_line(run.stdoutText);
    if (!line.empty()) text += ": " + std::string(line);
  }
  return finish(text);
}

}  // namespace native::restart
