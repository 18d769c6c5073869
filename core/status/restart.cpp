#include "core/status/restart.h"

namespace core::status {

Status validate_restart_binding(const RestartBinding& b) {
  if (b.threshold < 1 || b.threshold > kMaxRestartThreshold) {
    return make_error("invalid_threshold", "threshold must be between 1 and 100 consecutive failures");
  }
  if (b.cooldownSeconds < 0 || b.cooldownSeconds > kMaxRestartCooldownSeconds) {
    return make_error("invalid_cooldown", "cooldownSeconds must be between 0 and 86400");
  }
  return {};
}

RestartStep feed_restart(const RestartBinding& b, const RestartState& state, std::int64_t at_ms,
                         ProbeStatus verdict) {
  RestartStep step{state, false};
  RestartState& s = step.state;
  if (verdict != ProbeStatus::down) {
    s.consecutiveFailures = 0;
    return step;
  }
  if (s.consecutiveFailures < b.threshold) ++s.consecutiveFailures;
  if (s.consecutiveFailures < b.threshold) return step;
  const std::int64_t cooldown_ms = std::int64_t{b.cooldownSeconds} * 1000;
  if (!s.lastFiredAtMs.has_value() || at_ms - *s.lastFiredAtMs >= cooldown_ms) {
    s.lastFiredAtMs = at_ms;
    step.fire = true;
  }
  return step;
}

}  // namespace core::status
