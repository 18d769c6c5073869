#pragma once
// Firing an HTTP restart target (docs/status-restart.md, "HTTP"): one GET or POST, success when the status
// is inside the target's expected range. Also the dashboard's manual "test fire".

#include "core/status/restart_target.h"
#include "native/restart/restart_outcome.h"

namespace native::restart {

// The target holds its auth header value in plaintext (unsealed by the caller). Invalid settings are a
// failed outcome (`invalid target: <code>`), nothing is sent. Detail: `HTTP <status>` with the status,
// `HTTP <status> (expected <min>-<max>)` outside the range, `timed out after <n> ms`, or
// `request failed: <reason>`; never the auth header value or the body. Blocks up to timeoutMs; never
// throws; thread-safe.
RestartOutcome fire_http(const core::status::HttpRestartTarget& target);

}  // namespace native::restart
