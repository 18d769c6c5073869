#include "core/status/uptime.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core::status;

namespace {
constexpr std::int64_t kH = 3600'000;
constexpr auto op = ProbeStatus::operational;
constexpr auto deg = ProbeStatus::degraded;
constexpr auto dn = ProbeStatus::down;

std::int64_t midnight(core::CivilDate d) {
  return core::days_from_civil(d) * kDayMs;
}
}  // namespace

TEST_CASE("status: uptime counts beats, degraded as up, maintenance left out") {
  const std::int64_t now = midnight({2026, 11, 22}) + 12 * kH;
  std::vector<TimedVerdict> beats{
      {now - kUptime24hMs, dn},      // exactly 24 h before: outside the window
      {now - kUptime24hMs + 1, op},  // inside
      {now - 3 * kH, dn},            // inside maintenance below
      {now - 2 * kH, dn},
      {now - kH, deg},
      {now, op},      // the window's end counts
      {now + 1, dn},  // the future: outside
  };
  std::vector<TimeRange> maintenance{{now - 3 * kH, now - 2 * kH}};  // [start, end): excludes now - 3h only
  auto u = uptime(beats, maintenance, now, kUptime24hMs);
  REQUIRE(u.has_value());
  CHECK(*u == Uptime{3, 4});
  CHECK(u->basis_points() == 7500);

  // Without the maintenance the beat at now - 3h counts.
  CHECK(*uptime(beats, {}, now, kUptime24hMs) == Uptime{3, 5});
  // 30 days includes the beat at exactly 24 h.
  CHECK(*uptime(beats, {}, now, kUptime30dMs) == Uptime{3, 6});

  // Rounded down: 2/3 -> 6666; 100.00 % only without a down beat.
  std::vector<TimedVerdict> thirds{{now, op}, {now - 1, op}, {now - 2, dn}};
  CHECK(uptime(thirds, {}, now, kH)->basis_points() == 6666);
  std::vector<TimedVerdict> many(9999, TimedVerdict{now, op});
  many.push_back({now, dn});
  CHECK(uptime(many, {}, now, kH)->basis_points() == 9999);
  many.pop_back();
  CHECK(uptime(many, {}, now, kH)->basis_points() == 10000);

  // No beat, or only beats in maintenance: null.
  CHECK(uptime({}, {}, now, kUptime24hMs) == std::nullopt);
  std::vector<TimedVerdict> in_maint{{now - 3 * kH, dn}};
  CHECK(uptime(in_maint, maintenance, now, kUptime24hMs) == std::nullopt);
}

TEST_CASE("status: the status of a period") {
  const std::int64_t day = midnight({2026, 11, 20});
  const std::int64_t next = day + kDayMs;
  std::vector<TimeRange> maint{{day + 2 * kH, day + 4 * kH}};
  auto status = [&](std::vector<TimedVerdict> beats, std::vector<TimeRange> m = {}) {
    return period_status(beats, m, day, next);
  };
  CHECK(status({{day, op}, {next - 1, op}}) == ComponentStatus::operational);
  CHECK(status({{day, op}, {day + kH, deg}}) == ComponentStatus::degraded);
  CHECK(status({{day + kH, dn}, {day + 2 * kH, deg}, {day + 3 * kH, op}}) == ComponentStatus::down);
  // Beats outside the period do not count.
  CHECK(status({{day - 1, dn}, {next, dn}, {day + 5, op}}) == ComponentStatus::operational);
  CHECK(status({{day - 1, dn}, {next, dn}}) == ComponentStatus::no_data);
  CHECK(status({}) == ComponentStatus::no_data);
  // A down beat inside maintenance is ignored; the rest decide.
  CHECK(status({{day + 3 * kH, dn}, {day + 5 * kH, deg}}, maint) == ComponentStatus::degraded);
  // Only maintenance beats, or no beats while maintenance covered part of the day: maintenance.
  CHECK(status({{day + 3 * kH, dn}}, maint) == ComponentStatus::maintenance);
  CHECK(status({}, maint) == ComponentStatus::maintenance);
  // A maintenance interval that merely touches the period's edges does not overlap it.
  CHECK(status({}, {{day - kH, day}}) == ComponentStatus::no_data);
  CHECK(status({}, {{next, next + kH}}) == ComponentStatus::no_data);
  CHECK(status({}, {{day - kH, day + 1}}) == ComponentStatus::maintenance);
}

TEST_CASE("status: daily history of 90 UTC days, oldest first") {
  const core::CivilDate today{2026, 3, 1};  // crosses February in a non-leap year
  const std::int64_t t = midnight(today);
  std::vector<TimedVerdict> beats{
      {t + kH, op},                   // today (partial)
      {t - 1, dn},                    // 2026-02-28, last millisecond
      {t - kDayMs, deg},              // 2026-02-28, first millisecond
      {t - 2 * kDayMs + kH, op},      // 2026-02-27
      {t - 89 * kDayMs, dn},          // the oldest day, 2025-12-02
      {t - 89 * kDayMs - 1, dn},      // the day before it: not in the history
      {t + kDayMs, dn},               // tomorrow: not in the history
      {t - 3 * kDayMs + 2 * kH, dn},  // 2026-02-26 during maintenance
  };
  std::vector<TimeRange> maint{{t - 3 * kDayMs + kH, t - 3 * kDayMs + 3 * kH}};
  auto history = daily_history(beats, maint, today);
  REQUIRE(history.size() == 90);
  CHECK(history.front() == DayStatus{{2025, 12, 2}, ComponentStatus::down});
  CHECK(history[1] == DayStatus{{2025, 12, 3}, ComponentStatus::no_data});
  CHECK(history[85] == DayStatus{{2026, 2, 25}, ComponentStatus::no_data});
  CHECK(history[86] == DayStatus{{2026, 2, 26}, ComponentStatus::maintenance});
  CHECK(history[87] == DayStatus{{2026, 2, 27}, ComponentStatus::operational});
  CHECK(history[88] == DayStatus{{2026, 2, 28}, ComponentStatus::down});
  CHECK(history.back() == DayStatus{{2026, 3, 1}, ComponentStatus::operational});
  int no_data = 0;
  for (const DayStatus& d : history) no_data += d.status == ComponentStatus::no_data ? 1 : 0;
  CHECK(no_data == 85);

  // Every entry agrees with period_status over its UTC day.
  for (std::size_t i = 0; i < history.size(); ++i) {
    const std::int64_t start = midnight(history[i].date);
    CHECK(history[i].status == period_status(beats, maint, start, start + kDayMs));
  }

  // Before 1970 the day index still floors correctly.
  std::vector<TimedVerdict> old{{-1, dn}};
  auto before_epoch = daily_history(old, {}, {1970, 1, 1});
  CHECK(before_epoch[88] == DayStatus{{1969, 12, 31}, ComponentStatus::down});
  CHECK(before_epoch[89] == DayStatus{{1970, 1, 1}, ComponentStatus::no_data});
}
