#include "core/status/auto_incident.h"

namespace core::status {

AutoIncidentStep feed_auto_incident(const AutoIncidentState& state, std::int64_t at_ms, ProbeStatus verdict) {
  AutoIncidentStep step{state, AutoIncidentEvent::none};
  AutoIncidentState& s = step.state;
  if (verdict == ProbeStatus::down) {
    if (s.consecutiveFailures == 0) s.failingSinceMs = at_ms;
    // Saturate: a check down for years must not overflow the counter.
    if (s.consecutiveFailures < kAutoIncidentOpenFailures) ++s.consecutiveFailures;
    if (s.open) {
      s.recovering = false;
      s.recoveringSinceMs = 0;
    } else if (s.consecutiveFailures >= kAutoIncidentOpenFailures) {
      s.open = true;
      s.incidentStartedAtMs = s.failingSinceMs;
      step.event = AutoIncidentEvent::opened;
    }
    return step;
  }
  s.consecutiveFailures = 0;
  s.failingSinceMs = 0;
  if (!s.open) return step;
  if (!s.recovering) {
    s.recovering = true;
    s.recoveringSinceMs = at_ms;
    return step;
  }
  // Both times are Unix milliseconds of real probes, far from the int64 limits, so the difference is safe.
  if (at_ms - s.recoveringSinceMs >= kAutoIncidentRecoveryMs) {
    s = AutoIncidentState{};
    step.event = AutoIncidentEvent::resolved;
  }
  return step;
}

}  // namespace core::status
