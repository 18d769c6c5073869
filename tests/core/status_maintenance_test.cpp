#include "core/status/maintenance.h"

#include <doctest/doctest.h>

using namespace core::status;

namespace {
constexpr std::int64_t kH = 3600'000;
constexpr std::int64_t kStart = 1'795'000'000'000;

MaintenanceWindow planned() {
  MaintenanceWindow w;
  w.createdAtMs = kStart - 48 * kH;
  w.scheduledStartMs = kStart;
  w.endMs = kStart + 2 * kH;
  return w;
}
}  // namespace

TEST_CASE("status: maintenance schedule validation") {
  CHECK(validate_maintenance_schedule(kStart, kStart + 1).ok());
  CHECK(validate_maintenance_schedule(kStart, kStart).error().code == "invalid_maintenance_end");
  CHECK(validate_maintenance_schedule(kStart, kStart - kH).error().code == "invalid_maintenance_end");
}

TEST_CASE("status: maintenance state follows the clock") {
  MaintenanceWindow w = planned();
  CHECK(maintenance_state(w, kStart - 1) == MaintenanceState::scheduled);
  CHECK(maintenance_state(w, kStart) == MaintenanceState::in_progress);
  CHECK(maintenance_state(w, kStart + 2 * kH - 1) == MaintenanceState::in_progress);
  CHECK(maintenance_state(w, kStart + 2 * kH) == MaintenanceState::completed);
  CHECK(maintenance_interval(w) == TimeRange{kStart, kStart + 2 * kH});

  CHECK(wire_name(MaintenanceState::scheduled) == "scheduled");
  CHECK(wire_name(MaintenanceState::in_progress) == "in_progress");
  CHECK(wire_name(MaintenanceState::completed) == "completed");
  CHECK(wire_name(MaintenanceState::cancelled) == "cancelled");
}

TEST_CASE("status: maintenance manual start, complete and cancel") {
  // Start now, 30 minutes early; then mark complete after 1 hour.
  auto started = start_maintenance(planned(), kStart - kH / 2);
  REQUIRE(started.ok());
  CHECK(started->startedAtMs == kStart - kH / 2);
  CHECK(maintenance_state(*started, kStart - kH / 2 - 1) == MaintenanceState::scheduled);
  CHECK(maintenance_state(*started, kStart - kH / 2) == MaintenanceState::in_progress);
  CHECK(start_maintenance(*started, kStart).error().code == "maintenance_not_scheduled");
  CHECK(cancel_maintenance(*started, kStart - 1).error().code == "maintenance_not_scheduled");

  auto done = complete_maintenance(*started, kStart + kH / 2);
  REQUIRE(done.ok());
  CHECK(maintenance_state(*done, kStart + kH / 2) == MaintenanceState::completed);
  CHECK(maintenance_state(*done, kStart) == MaintenanceState::in_progress);
  CHECK(maintenance_interval(*done) == TimeRange{kStart - kH / 2, kStart + kH / 2});
  CHECK(complete_maintenance(*done, kStart + kH).error().code == "maintenance_not_in_progress");
  CHECK(start_maintenance(*done, kStart + kH).error().code == "maintenance_not_scheduled");

  // Completing needs the window to be in progress.
  CHECK(complete_maintenance(planned(), kStart - 1).error().code == "maintenance_not_in_progress");
  CHECK(complete_maintenance(planned(), kStart + 2 * kH).error().code == "maintenance_not_in_progress");
  CHECK(complete_maintenance(planned(), kStart).ok());

  // Cancel only before the start.
  CHECK(cancel_maintenance(planned(), kStart).error().code == "maintenance_not_scheduled");
  auto cancelled = cancel_maintenance(planned(), kStart - kH);
  REQUIRE(cancelled.ok());
  CHECK(cancelled->cancelledAtMs == kStart - kH);
  CHECK(maintenance_state(*cancelled, kStart - kH - 1) == MaintenanceState::scheduled);
  CHECK(maintenance_state(*cancelled, kStart + kH) == MaintenanceState::cancelled);
  CHECK(maintenance_interval(*cancelled) == std::nullopt);
  CHECK(cancel_maintenance(*cancelled, kStart - 1).error().code == "maintenance_not_scheduled");
  CHECK(start_maintenance(*cancelled, kStart - 1).error().code == "maintenance_not_scheduled");

  // A manual completion at the very start leaves an empty interval.
  MaintenanceWindow empty = planned();
  empty.completedAtMs = kStart;
  CHECK(maintenance_interval(empty) == std::nullopt);
}

TEST_CASE("status: maintenance reminder one hour before the start") {
  CHECK(kMaintenanceReminderMs == kH);
  MaintenanceWindow w = planned();
  CHECK_FALSE(reminder_due(w, kStart - kH - 1, false));
  CHECK(reminder_due(w, kStart - kH, false));
  CHECK(reminder_due(w, kStart - 1, false));
  CHECK_FALSE(reminder_due(w, kStart - 1, true));  // already sent
  CHECK_FALSE(reminder_due(w, kStart, false));     // started: the started notification replaces it

  // Created less than an hour before its start (or exactly at the reminder time): no reminder.
  MaintenanceWindow late = planned();
  late.createdAtMs = kStart - kH;
  CHECK_FALSE(reminder_due(late, kStart - kH / 2, false));
  late.createdAtMs = kStart - kH - 1;
  CHECK(reminder_due(late, kStart - kH / 2, false));

  // Started early or cancelled: no reminder.
  MaintenanceWindow early = planned();
  early.startedAtMs = kStart - 2 * kH;
  CHECK_FALSE(reminder_due(early, kStart - kH / 2, false));
  MaintenanceWindow cancelled = planned();
  cancelled.cancelledAtMs = kStart - 2 * kH;
  CHECK_FALSE(reminder_due(cancelled, kStart - kH / 2, false));
}
