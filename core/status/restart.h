#pragma once
// Restart target firing (spec document 3, "Restart targets"): a target bound to a check fires after N
// consecutive failures, at most once per cooldown. Which kind of target it is (HTTP, SSH, deployment
// platform) and whether the restart worked do not matter here.

#include <cstdint>
#include <optional>

#include "core/result.h"
#include "core/status/status.h"

namespace core::status {

inline constexpr int kDefaultRestartCooldownSeconds = 600;  // Limits: restart cooldown default 600 s
inline constexpr int kMaxRestartThreshold = 100;
inline constexpr int kMaxRestartCooldownSeconds = 86400;

struct RestartBinding {
  int threshold = 3;  // N consecutive failures
  int cooldownSeconds = kDefaultRestartCooldownSeconds;
};

// Errors: `invalid_threshold` unless 1 <= threshold <= 100; `invalid_cooldown` unless
// 0 <= cooldownSeconds <= 86400 (a day). The bounds are ours: the spec gives only the default.
Status validate_restart_binding(const RestartBinding& binding);

struct RestartState {
  int consecutiveFailures = 0;                // saturates at the threshold
  std::optional<std::int64_t> lastFiredAtMs;  // survives recoveries

  friend bool operator==(const RestartState&, const RestartState&) = default;
};

struct RestartStep {
  RestartState state;
  bool fire = false;

  friend bool operator==(const RestartStep&, const RestartStep&) = default;
};

// One verdict at `at_ms`. A non-down verdict (degraded is up) resets the failure count and never fires.
// A down verdict counts; the target fires when the count has reached the threshold and the cooldown has
// passed since the last firing (at_ms - lastFiredAtMs >= cooldown, or never fired). A check that stays
// down therefore fires again once per cooldown, like a watchdog retrying a restart that did not help; a
// check that recovers and fails again within the cooldown does not fire until it has passed, so a
// flapping service is not restarted in a loop. An earlier time than lastFiredAtMs never fires.
// Precondition: validate_restart_binding(binding) succeeded.
RestartStep feed_restart(const RestartBinding& binding, const RestartState& state, std::int64_t at_ms,
                         ProbeStatus verdict);

}  // namespace core::status
