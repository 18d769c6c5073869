#include "core/status/auto_incident.h"

#include <doctest/doctest.h>

using namespace core::status;

namespace {
constexpr std::int64_t kT0 = 1'795'000'000'000;  // 2026-11-18T11:06:40Z, any instant works
constexpr std::int64_t kMin = 60'000;

// Feeds one verdict into `state` and returns the event.
AutoIncidentEvent feed(AutoIncidentState& state, std::int64_t at, ProbeStatus verdict) {
  AutoIncidentStep step = feed_auto_incident(state, at, verdict);
  state = step.state;
  return step.event;
}
}  // namespace

TEST_CASE("status: auto incident opens on the 3rd consecutive failure, started at the first") {
  CHECK(kAutoIncidentOpenFailures == 3);
  CHECK(kAutoIncidentRecoveryMs == 30 * kMin);
  AutoIncidentState s;
  CHECK(feed(s, kT0, ProbeStatus::down) == AutoIncidentEvent::none);
  CHECK(s.consecutiveFailures == 1);
  CHECK(s.failingSinceMs == kT0);
  CHECK(feed(s, kT0 + kMin, ProbeStatus::down) == AutoIncidentEvent::none);
  CHECK_FALSE(s.open);
  CHECK(feed(s, kT0 + 2 * kMin, ProbeStatus::down) == AutoIncidentEvent::opened);
  CHECK(s.open);
  CHECK(s.incidentStartedAtMs == kT0);
  // Further failures do not open a second incident; the counter saturates.
  CHECK(feed(s, kT0 + 3 * kMin, ProbeStatus::down) == AutoIncidentEvent::none);
  CHECK(s.consecutiveFailures == 3);
  CHECK(s.incidentStartedAtMs == kT0);
}

TEST_CASE("status: auto incident needs consecutive failures; degraded and operational break the run") {
  AutoIncidentState s;
  feed(s, kT0, ProbeStatus::down);
  feed(s, kT0 + kMin, ProbeStatus::down);
  CHECK(feed(s, kT0 + 2 * kMin, ProbeStatus::degraded) == AutoIncidentEvent::none);
  CHECK(s == AutoIncidentState{});
  feed(s, kT0 + 3 * kMin, ProbeStatus::down);
  feed(s, kT0 + 4 * kMin, ProbeStatus::down);
  CHECK(feed(s, kT0 + 5 * kMin, ProbeStatus::operational) == AutoIncidentEvent::none);
  CHECK_FALSE(s.open);
  feed(s, kT0 + 6 * kMin, ProbeStatus::down);
  feed(s, kT0 + 7 * kMin, ProbeStatus::down);
  CHECK(feed(s, kT0 + 8 * kMin, ProbeStatus::down) == AutoIncidentEvent::opened);
  CHECK(s.incidentStartedAtMs == kT0 + 6 * kMin);
}

TEST_CASE("status: auto incident resolves after 30 minutes of recovery; a failure restarts them") {
  AutoIncidentState s;
  for (int i = 0; i < 3; ++i) feed(s, kT0 + i * kMin, ProbeStatus::down);
  REQUIRE(s.open);

  // Recovery starts at the first non-down verdict (degraded counts as recovered).
  const std::int64_t r1 = kT0 + 10 * kMin;
  CHECK(feed(s, r1, ProbeStatus::degraded) == AutoIncidentEvent::none);
  CHECK(s.recovering);
  CHECK(s.recoveringSinceMs == r1);
  CHECK(s.consecutiveFailures == 0);
  CHECK(feed(s, r1 + 29 * kMin, ProbeStatus::operational) == AutoIncidentEvent::none);
  // One failure during recovery: still open, recovery over; no new opened event.
  CHECK(feed(s, r1 + 29 * kMin + 30'000, ProbeStatus::down) == AutoIncidentEvent::none);
  CHECK(s.open);
  CHECK_FALSE(s.recovering);
  CHECK(s.consecutiveFailures == 1);

  const std::int64_t r2 = r1 + 31 * kMin;
  CHECK(feed(s, r2, ProbeStatus::operational) == AutoIncidentEvent::none);
  CHECK(s.recoveringSinceMs == r2);
  CHECK(feed(s, r2 + 30 * kMin - 1, ProbeStatus::operational) == AutoIncidentEvent::none);
  CHECK(s.open);
  CHECK(feed(s, r2 + 30 * kMin, ProbeStatus::operational) == AutoIncidentEvent::resolved);
  CHECK(s == AutoIncidentState{});

  // Afterwards a new incident needs three fresh failures.
  CHECK(feed(s, r2 + 31 * kMin, ProbeStatus::down) == AutoIncidentEvent::none);
  CHECK(feed(s, r2 + 32 * kMin, ProbeStatus::down) == AutoIncidentEvent::none);
  CHECK(feed(s, r2 + 33 * kMin, ProbeStatus::down) == AutoIncidentEvent::opened);
}

TEST_CASE("status: auto incident recovery is judged at verdicts only, and never by an earlier time") {
  AutoIncidentState s;
  for (int i = 0; i < 3; ++i) feed(s, kT0 + i * 3600'000LL, ProbeStatus::down);
  // An hourly check: the first good probe starts the recovery, the next one an hour later resolves.
  const std::int64_t r = kT0 + 3 * 3600'000LL;
  CHECK(feed(s, r, ProbeStatus::operational) == AutoIncidentEvent::none);
  CHECK(feed(s, r - 60 * kMin, ProbeStatus::operational) == AutoIncidentEvent::none);  // out of order
  CHECK(s.open);
  CHECK(feed(s, r + 60 * kMin, ProbeStatus::operational) == AutoIncidentEvent::resolved);
}
