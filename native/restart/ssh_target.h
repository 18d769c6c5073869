#pragma once
// Firing an SSH restart target (docs/status-restart.md, "SSH"): connect, check the host key against the
// target's pin, authenticate with the target's private key, run its one command; exit status 0 is
// success.

#include "core/status/restart_target.h"
#include "native/restart/restart_outcome.h"

namespace native::restart {

// The target holds its private key and passphrase in plaintext (unsealed by the caller); the key is
// imported in memory and never written anywhere.
//
// Host keys: the server's key must match hostKeyFingerprint. With no pin and trustOnFirstUse the key is
// accepted and reported (hostKeyLearned) for the caller to store; with a pin, a different key is refused
// whatever trustOnFirstUse says. The command is not run on a refused host.
//
// Detail: `exit status <n>` (with the last line of stderr, or of stdout, after `: ` when the status is not
// 0), `no exit status`, `invalid target: <code>`, `private key could not be read (...)`, `host key
// changed: expected <pin>, got <fingerprint>`, `unknown host key <fingerprint>`, `timed out after <n> ms
// (<step>)`, or the failed step and libssh's reason. The passphrase and key never appear in it. The whole
// firing, connect included, ends by timeoutMs (plus up to a second to close the connection). Never throws;
// thread-safe.
RestartOutcome fire_ssh(const core::status::SshRestartTarget& target);

}  // namespace native::restart
