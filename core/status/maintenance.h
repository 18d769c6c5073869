#pragma once
// Maintenance windows (spec document 3, Maintenance rows of "States and transitions", "Events" and Limits):
// the state at a given time, the manual transitions, the 1-hour reminder and the interval during which
// the window covers its components.

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/result.h"

namespace core::status {

inline constexpr std::int64_t kMaintenanceReminderMs = 60 * 60 * 1000;  // Limits: 1 hour before start

enum class MaintenanceState { scheduled, in_progress, completed, cancelled };

// `scheduled`, `in_progress`, `completed`, `cancelled`.
std::string_view wire_name(MaintenanceState state);

// What is stored for a window: the planned times and the times of the manual actions taken.
struct MaintenanceWindow {
  std::int64_t createdAtMs = 0;
  std::int64_t scheduledStartMs = 0;
  std::int64_t endMs = 0;                     // the planned end; reaching it completes the window
  std::optional<std::int64_t> startedAtMs;    // "Start now"
  std::optional<std::int64_t> completedAtMs;  // "Mark complete"
  std::optional<std::int64_t> cancelledAtMs;  // cancel

  friend bool operator==(const MaintenanceWindow&, const MaintenanceWindow&) = default;
};

// Errors: `invalid_maintenance_end` unless end_ms > scheduled_start_ms. A start in the past is not refused
// here (the window is then in progress at once); whether the dashboard allows it is the product's call.
Status validate_maintenance_schedule(std::int64_t scheduled_start_ms, std::int64_t end_ms);

// The state at `now_ms`, first matching rule:
//   cancelled at or before now -> cancelled; completed at or before now, or now >= endMs -> completed
//   (the planned end passing completes the window, as "scheduledStart passes" starts it);
//   started at or before now, or now >= scheduledStartMs -> in_progress; otherwise scheduled.
MaintenanceState maintenance_state(const MaintenanceWindow& window, std::int64_t now_ms);

// The half-open interval [startMs, endMs) during which the window covers its components: from the earlier
// of scheduledStart and a manual start, to the earlier of the planned end and a manual completion. nullopt
// for a cancelled window (it never started) or an empty interval. maintenance_state is in_progress exactly
// at the times inside it.
struct TimeRange {
  std::int64_t startMs = 0;
  std::int64_t endMs = 0;

  bool contains(std::int64_t t) const { return startMs <= t && t < endMs; }
  friend bool operator==(const TimeRange&, const TimeRange&) = default;
};
std::optional<TimeRange> maintenance_interval(const MaintenanceWindow& window);

// "Start now": sets startedAtMs. Errors: `maintenance_not_scheduled` unless scheduled at now_ms.
Result<MaintenanceWindow> start_maintenance(const MaintenanceWindow& window, std::int64_t now_ms);
// "Mark complete": sets completedAtMs. Errors: `maintenance_not_in_progress` unless in_progress at now_ms.
Result<MaintenanceWindow> complete_maintenance(const MaintenanceWindow& window, std::int64_t now_ms);
// Cancel, only before the start: sets cancelledAtMs. Errors: `maintenance_not_scheduled` unless scheduled
// at now_ms (an in-progress window is completed, not cancelled).
Result<MaintenanceWindow> cancel_maintenance(const MaintenanceWindow& window, std::int64_t now_ms);

// Whether to send the maintenance.reminder now: not yet sent, still scheduled, and now_ms is within the
// hour before scheduledStart. A window created less than an hour before its start gets no reminder: the
// maintenance.scheduled notification subscribers just received already says it is imminent.
bool reminder_due(const MaintenanceWindow& window, std::int64_t now_ms, bool reminder_sent);

}  // namespace core::status
