#include "core/status/restart.h"

#include <doctest/doctest.h>

using namespace core::status;

namespace {
constexpr std::int64_t kT0 = 1'795'000'000'000;
constexpr std::int64_t kSec = 1000;

bool feed(const RestartBinding& b, RestartState& state, std::int64_t at, ProbeStatus verdict) {
  RestartStep step = feed_restart(b, state, at, verdict);
  state = step.state;
  return step.fire;
}
std::string code_of(RestartBinding b) {
  auto r = validate_restart_binding(b);
  return r.ok() ? "" : r.error().code;
}
}  // namespace

TEST_CASE("status: restart binding validation") {
  RestartBinding b;
  CHECK(b.cooldownSeconds == 600);
  CHECK(code_of(b) == "");
  CHECK(code_of({1, 0}) == "");
  CHECK(code_of({100, 86400}) == "");
  CHECK(code_of({0, 600}) == "invalid_threshold");
  CHECK(code_of({101, 600}) == "invalid_threshold");
  CHECK(code_of({3, -1}) == "invalid_cooldown");
  CHECK(code_of({3, 86401}) == "invalid_cooldown");
  CHECK(code_of({0, -1}) == "invalid_threshold");
}

TEST_CASE("status: restart fires at the threshold, then once per cooldown while still failing") {
  RestartBinding b{3, 600};
  RestartState s;
  CHECK_FALSE(feed(b, s, kT0, ProbeStatus::down));
  CHECK_FALSE(feed(b, s, kT0 + 30 * kSec, ProbeStatus::down));
  CHECK(feed(b, s, kT0 + 60 * kSec, ProbeStatus::down));
  CHECK(s.lastFiredAtMs == kT0 + 60 * kSec);
  CHECK(s.consecutiveFailures == 3);
  // Still down inside the cooldown: no fire.
  CHECK_FALSE(feed(b, s, kT0 + 90 * kSec, ProbeStatus::down));
  CHECK_FALSE(feed(b, s, kT0 + 659 * kSec, ProbeStatus::down));
  // Exactly the cooldown later: fires again.
  CHECK(feed(b, s, kT0 + 660 * kSec, ProbeStatus::down));
  CHECK(s.lastFiredAtMs == kT0 + 660 * kSec);
  CHECK(s.consecutiveFailures == 3);
}

TEST_CASE("status: restart count resets on recovery; the cooldown survives it") {
  RestartBinding b{2, 600};
  RestartState s;
  feed(b, s, kT0, ProbeStatus::down);
  CHECK(feed(b, s, kT0 + 30 * kSec, ProbeStatus::down));
  // Degraded is up: the run ends.
  CHECK_FALSE(feed(b, s, kT0 + 60 * kSec, ProbeStatus::degraded));
  CHECK(s.consecutiveFailures == 0);
  CHECK(s.lastFiredAtMs == kT0 + 30 * kSec);
  // A new run reaches the threshold inside the cooldown: no fire (flapping).
  feed(b, s, kT0 + 90 * kSec, ProbeStatus::down);
  CHECK_FALSE(feed(b, s, kT0 + 120 * kSec, ProbeStatus::down));
  CHECK_FALSE(feed(b, s, kT0 + 150 * kSec, ProbeStatus::operational));
  // After the cooldown a new run fires at its threshold.
  CHECK_FALSE(feed(b, s, kT0 + 700 * kSec, ProbeStatus::down));
  CHECK(feed(b, s, kT0 + 730 * kSec, ProbeStatus::down));
}

TEST_CASE("status: restart with threshold 1 and no cooldown; earlier times never fire") {
  RestartBinding b{1, 0};
  RestartState s;
  CHECK(feed(b, s, kT0, ProbeStatus::down));
  CHECK(feed(b, s, kT0, ProbeStatus::down));  // cooldown 0: every failure fires
  CHECK_FALSE(feed(b, s, kT0 - 1, ProbeStatus::down));
  CHECK_FALSE(feed(b, s, kT0 + 5, ProbeStatus::operational));
  CHECK(s == RestartState{0, kT0});
}
