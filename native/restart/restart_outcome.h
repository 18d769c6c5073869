#pragma once
// What one firing of a restart target produced, for the check's history (docs/status-restart.md).

#include <cstdint>
#include <optional>
#include <string>

namespace native::restart {

struct RestartOutcome {
  bool ok = false;
  // One short line for the history: the HTTP status (and the platform's message), the exit status, or what
  // failed. Never holds a secret of the target: those are replaced by `[redacted]` if a server echoes them.
  std::string detail;
  std::int64_t durationMs = 0;  // from the call to its return, including validation and connecting
  // HTTP and deploy: the response's status when one arrived. SSH: the command's exit status when it ended
  // with one. For the history, beside `detail`.
  std::optional<int> httpStatus;
  std::optional<int> exitStatus;
  // SSH only: the server's host key as `ssh-keygen -lf` prints it (`SHA256:...`), once the handshake got
  // that far; empty otherwise.
  std::string hostKeyFingerprint;
  // SSH only: the target had no pinned key, trusted on first use, and accepted this one. The caller stores
  // hostKeyFingerprint as the target's pin, so that a later change is refused.
  bool hostKeyLearned = false;
};

}  // namespace native::restart
