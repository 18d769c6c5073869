#pragma once
// Automatic incidents (spec document 3, "Incident (auto)" rows and Limits): a state machine per check, fed
// with its probe verdicts in time order. The worker stores the state with the check, feeds each new
// verdict and acts on the returned event (create or resolve the incident, notify subscribers).

#include <cstdint>

#include "core/status/status.h"

namespace core::status {

inline constexpr int kAutoIncidentOpenFailures = 3;  // "3 or more consecutive failures"
inline constexpr std::int64_t kAutoIncidentRecoveryMs =
    30 * 60 * 1000;  // "30 minutes of recovered operation"

struct AutoIncidentState {
  int consecutiveFailures = 0;      // down verdicts since the last non-down one, saturating at 3
  std::int64_t failingSinceMs = 0;  // time of the first down verdict of the current run (when > 0 failures)
  bool open = false;                // an automatic incident is open for the check
  std::int64_t incidentStartedAtMs = 0;  // while open: the incident's startedAt
  bool recovering = false;               // while open: non-down since recoveringSinceMs
  std::int64_t recoveringSinceMs = 0;

  friend bool operator==(const AutoIncidentState&, const AutoIncidentState&) = default;
};

enum class AutoIncidentEvent {
  none,
  opened,    // create an incident: status investigating, source auto, startedAt incidentStartedAtMs
  resolved,  // resolve it, resolvedAt = the time of the verdict that completed the recovery
};

struct AutoIncidentStep {
  AutoIncidentState state;
  AutoIncidentEvent event = AutoIncidentEvent::none;

  friend bool operator==(const AutoIncidentStep&, const AutoIncidentStep&) = default;
};

// One verdict at `at_ms`. Rules:
//  - down: counts a failure (the first one of a run sets failingSinceMs). With no incident open, the 3rd
//    consecutive failure opens one (event opened) whose startedAt is failingSinceMs, the start of the
//    outage. With one open, it ends any recovery (the next non-down verdict restarts the 30 minutes).
//  - operational or degraded (degraded is slow but up, so it counts as recovered): resets the failure
//    count. With an incident open, the first one starts the recovery; the incident resolves (event
//    resolved, state back to closed) at the first non-down verdict at least 30 minutes after the recovery
//    began. The rule is evaluated on verdicts only, with no timer: a check probed hourly resolves at its
//    second good probe, 60 minutes after the first.
// Precondition: times do not decrease. An earlier time is not refused; its elapsed recovery counts as
// less than 30 minutes, so it never resolves an incident early.
AutoIncidentStep feed_auto_incident(const AutoIncidentState& state, std::int64_t at_ms, ProbeStatus verdict);

}  // namespace core::status
