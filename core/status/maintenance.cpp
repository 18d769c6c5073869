#include "core/status/maintenance.h"

#include <algorithm>

namespace core::status {

std::string_view wire_name(MaintenanceState state) {
  switch (state) {
    case MaintenanceState::scheduled:
      return "scheduled";
    case MaintenanceState::in_progress:
      return "in_progress";
    case MaintenanceState::completed:
      return "completed";
    case MaintenanceState::cancelled:
      break;
  }
  return "cancelled";
}

Status validate_maintenance_schedule(std::int64_t scheduled_start_ms, std::int64_t end_ms) {
  if (end_ms <= scheduled_start_ms) {
    return make_error("invalid_maintenance_end", "the end must be after the scheduled start");
  }
  return {};
}

namespace {
bool at_or_before(const std::optional<std::int64_t>& t, std::int64_t now) {
  return t.has_value() && *t <= now;
}
}  // namespace

MaintenanceState maintenance_state(const MaintenanceWindow& w, std::int64_t now) {
  if (at_or_before(w.cancelledAtMs, now)) return MaintenanceState::cancelled;
  if (at_or_before(w.completedAtMs, now) || now >= w.endMs) return MaintenanceState::completed;
  if (at_or_before(w.startedAtMs, now) || now >= w.scheduledStartMs) return MaintenanceState::in_progress;
  return MaintenanceState::scheduled;
}

std::optional<TimeRange> maintenance_interval(const MaintenanceWindow& w) {
  if (w.cancelledAtMs.has_value()) return std::nullopt;
  TimeRange r{w.scheduledStartMs, w.endMs};
  if (w.startedAtMs.has_value()) r.startMs = std::min(r.startMs, *w.startedAtMs);
  if (w.completedAtMs.has_value()) r.endMs = std::min(r.endMs, *w.completedAtMs);
  if (r.startMs >= r.endMs) return std::nullopt;
  return r;
}

Result<MaintenanceWindow> start_maintenance(const MaintenanceWindow& w, std::int64_t now) {
  if (maintenance_state(w, now) != MaintenanceState::scheduled) {
    return make_error("maintenance_not_scheduled", "only a scheduled maintenance window can be started");
  }
  MaintenanceWindow next = w;
  next.startedAtMs = now;
  return next;
}

Result<MaintenanceWindow> complete_maintenance(const MaintenanceWindow& w, std::int64_t now) {
  if (maintenance_state(w, now) != MaintenanceState::in_progress) {
    return make_error("maintenance_not_in_progress",
                      "only a maintenance window in progress can be completed");
  }
  MaintenanceWindow next = w;
  next.completedAtMs = now;
  return next;
}

Result<MaintenanceWindow> cancel_maintenance(const MaintenanceWindow& w, std::int64_t now) {
  if (maintenance_state(w, now) != MaintenanceState::scheduled) {
    return make_error("maintenance_not_scheduled",
                      "a maintenance window can be cancelled only before it starts");
  }
  MaintenanceWindow next = w;
  next.cancelledAtMs = now;
  return next;
}

bool reminder_due(const MaintenanceWindow& w, std::int64_t now, bool reminder_sent) {
  const std::int64_t remind_at = w.scheduledStartMs - kMaintenanceReminderMs;
  return !reminder_sent && w.createdAtMs < remind_at && now >= remind_at &&
         maintenance_state(w, now) == MaintenanceState::scheduled;
}

}  // namespace core::status
