// Honest uptime (core/status/coverage.h, uptime.h): results turned into time, gaps unknown, maintenance
// apart, and the snapshot's figures from day totals and exact spans alike.

#include "core/status/uptime.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core::status;

namespace {
constexpr std::int64_t kS = 1000;
constexpr std::int64_t kMin = 60 * kS;
constexpr std::int64_t kH = 60 * kMin;
constexpr auto op = ProbeStatus::operational;
constexpr auto deg = ProbeStatus::degraded;
constexpr auto dn = ProbeStatus::down;
constexpr auto OP = TimeState::operational;
constexpr auto DEG = TimeState::degraded;
constexpr auto DN = TimeState::down;
constexpr auto UNK = TimeState::unknown;

std::int64_t midnight(core::CivilDate d) {
  return core::days_from_civil(d) * kDayMs;
}

// Exact spans over every day: the "read every raw result" way.
CheckTime all_exact(const std::vector<Observation>& results, std::int64_t now_ms) {
  CheckTime c;
  const std::int64_t first = history_first_day(now_ms) - 31;
  for (std::int64_t d = first; d <= utc_day(now_ms); ++d) c.exactDays.push_back(d);
  c.spans = check_timeline(results, results.empty() ? now_ms : results.front().atMs, first * kDayMs, now_ms);
  return c;
}
}  // namespace

TEST_CASE("status: a result vouches for interval + timeout + 5 s") {
  CHECK(result_cover_ms(30 * kS, 10 * kS) == 45 * kS);
  CHECK(result_cover_ms(60 * kS, 10 * kS) == 75 * kS);
  CHECK(result_cover_ms(3600 * kS, 3600 * kS) == kMaxCoverMs);
  CHECK(result_cover_ms(1'000'000 * kS, 0) == kMaxCoverMs);  // clamped
  CHECK(result_cover_ms(-5, -5) == kCoverGraceMs);
}

TEST_CASE("status: the time between two results: its state, then unknown") {
  const Observation r{1000 * kS, dn, 45 * kS};
  CHECK(spans_between(r, 1030 * kS) == std::vector<Span>{{1000 * kS, 1030 * kS, DN}});
  CHECK(spans_between(r, 1045 * kS) == std::vector<Span>{{1000 * kS, 1045 * kS, DN}});
  CHECK(spans_between(r, 1100 * kS) ==
        std::vector<Span>{{1000 * kS, 1045 * kS, DN}, {1045 * kS, 1100 * kS, UNK}});
  CHECK(spans_between(r, 1000 * kS).empty());
}

TEST_CASE(
    "status: a check's timeline: gaps while nothing probed are unknown, nothing before the first result") {
  const std::int64_t t = midnight({2026, 11, 20});
  // Every 30 s (cover 45 s): op, op, deg, then the edge is down 10 minutes, then down, op.
  std::vector<Observation> rs{{t, op, 45 * kS},
                              {t + 30 * kS, op, 45 * kS},
                              {t + 60 * kS, deg, 45 * kS},
                              {t + 11 * kMin, dn, 45 * kS},
                              {t + 11 * kMin + 30 * kS, op, 45 * kS}};
  const std::int64_t now = t + 20 * kMin;
  auto spans = check_timeline(rs, t, t - kH, now);
  CHECK(spans == std::vector<Span>{{t, t + 60 * kS, OP},
                                   {t + 60 * kS, t + 105 * kS, DEG},
                                   {t + 105 * kS, t + 11 * kMin, UNK},
                                   {t + 11 * kMin, t + 11 * kMin + 30 * kS, DN},
                                   {t + 11 * kMin + 30 * kS, t + 11 * kMin + 75 * kS, OP},
                                   {t + 11 * kMin + 75 * kS, now, UNK}});
  StateTime all = state_time(spans, {}, t - kH, now);
  CHECK(all ==
        StateTime{60 * kS + 45 * kS, 45 * kS, 30 * kS, (11 * kMin - 105 * kS) + (7 * kMin + 45 * kS), 0});
  // up 150 s, down 30 s: 150 / 180 = 83.33 %, the 17 minutes of unknown time counted nowhere.
  CHECK(all.uptime_basis_points() == 8333);

  // A window starting inside a gap: unknown from its start, as long as the check existed.
  auto from_gap = check_timeline(rs, t, t + 5 * kMin, t + 12 * kMin);
  CHECK(from_gap.front() == Span{t + 5 * kMin, t + 11 * kMin, UNK});
  // Results older than kMaxCoverMs before the window cannot reach it: the same answer without them.
  std::vector<Observation> late_only(rs.begin() + 3, rs.end());
  CHECK(check_timeline(late_only, t, t + 5 * kMin, t + 12 * kMin) == from_gap);
  // Before the first result ever nothing is counted; the window's end cuts the last result short.
  CHECK(check_timeline(rs, t, t - kH, t + 10 * kS) == std::vector<Span>{{t, t + 10 * kS, OP}});
  CHECK(check_timeline(rs, t, t - kH, t).empty());
  CHECK(check_timeline({}, t, t - kH, now).empty() == false);  // existed, no result read: all unknown
  CHECK(check_timeline({}, t, t, now) == std::vector<Span>{{t, now, UNK}});
  // Results at or after the window's end are ignored.
  CHECK(check_timeline(rs, t, t, t + 30 * kS) == std::vector<Span>{{t, t + 30 * kS, OP}});
}

TEST_CASE("status: maintenance time is apart, whatever was observed; overlapping windows count once") {
  std::vector<Span> spans{{0, 100, OP}, {100, 200, DN}, {200, 300, UNK}};
  std::vector<TimeRange> m{{50, 150}, {120, 250}};
  CHECK(state_time(spans, m, 0, 300) == StateTime{50, 0, 0, 50, 200});
  CHECK(state_time(spans, {}, 0, 300) == StateTime{100, 0, 100, 100, 0});
  CHECK(state_time(spans, m, 60, 110) == StateTime{0, 0, 0, 0, 50});
  CHECK(state_time(spans, m, 300, 400) == StateTime{});
  // Only maintenance and unknown: no uptime at all, never 100 %.
  const std::vector<TimeRange> all_day{{0, 200}};
  CHECK(state_time(spans, all_day, 0, 300).uptime_basis_points() == std::nullopt);
  // Rounded down: 100.00 % means no down time at all.
  CHECK((StateTime{9999, 0, 1, 0, 0}).uptime_basis_points() == 9999);
  CHECK((StateTime{99999, 0, 1, 0, 0}).uptime_basis_points() == 9999);
  CHECK((StateTime{1, 1, 0, 500, 500}).uptime_basis_points() == 10000);
  CHECK((StateTime{0, 2, 1, 0, 0}).uptime_basis_points() == 6666);  // degraded is up
}

TEST_CASE("status: a period's status from its time") {
  CHECK(time_status({1, 1, 1, 0, 0}, false) == ComponentStatus::down);
  CHECK(time_status({1, 1, 0, 5, 0}, false) == ComponentStatus::degraded);
  CHECK(time_status({1, 0, 0, 5, 5}, true) == ComponentStatus::operational);
  // Unknown time alone is no data: nothing was known of the day.
  CHECK(time_status({0, 0, 0, 5, 0}, false) == ComponentStatus::no_data);
  CHECK(time_status({0, 0, 0, 5, 5}, true) == ComponentStatus::maintenance);
  CHECK(time_status({}, true) == ComponentStatus::maintenance);
  CHECK(time_status({}, false) == ComponentStatus::no_data);
}

TEST_CASE("status: time cut at UTC midnights, before 1970 too") {
  const std::int64_t t = midnight({2026, 11, 20});
  std::vector<Span> spans{{t - 10, t + 20, DN}, {t + 20, t + kDayMs + 5, UNK}};
  auto days = time_by_utc_day(spans);
  REQUIRE(days.size() == 3);
  CHECK(days[0] == DayTime{utc_day(t) - 1, {0, 0, 10, 0, 0}});
  CHECK(days[1] == DayTime{utc_day(t), {0, 0, 20, kDayMs - 20, 0}});
  CHECK(days[2] == DayTime{utc_day(t) + 1, {0, 0, 0, 5, 0}});
  CHECK(utc_day(-1) == -1);
  CHECK(utc_day(-kDayMs) == -1);
  CHECK(utc_day(-kDayMs - 1) == -2);
  CHECK(utc_day(0) == 0);
}

TEST_CASE("status: snapshot figures over a constructed timeline, by exact spans and by day totals alike") {
  const core::CivilDate today{2026, 3, 1};  // crosses February in a non-leap year
  const std::int64_t t = midnight(today), now = t + 12 * kH;
  const std::int64_t c = 75 * kS;  // every result vouches for 75 s (60 s interval, 10 s timeout)
  std::vector<Observation> rs{
      {t - 89 * kDayMs - kMin, dn, c},   // 2025-12-01 23:59, 15 s of down reach 2025-12-02, the oldest day
      {t - 40 * kDayMs, dn, c},          // 2026-01-20: beyond 30 days
      {t - 3 * kDayMs + 2 * kH, dn, c},  // 2026-02-26, inside maintenance below
      {t - 2 * kDayMs + kH, deg, c},     // 2026-02-27
      {t - kDayMs + 13 * kH, dn, c},     // 2026-02-28 13:00, 23 h before now: in the 24 hours
      {t + kH, op, c},                   // today
      {t + 2 * kH, op, c},
  };
  std::vector<TimeRange> maint{{t - 3 * kDayMs + kH, t - 3 * kDayMs + 3 * kH}};
  CheckTime exact = all_exact(rs, now);
  auto f = component_figures(std::span<const CheckTime>(&exact, 1), maint, now, ComponentStatus::operational);
  // 24 h: [02-28 12:00, 03-01 12:00): 75 s down, 150 s operational -> 66.66 %.
  CHECK(f.uptime24h == 6666);
  // 30 d adds the degraded 75 s; the maintenance down does not count: 225 / 300 = 75 %.
  CHECK(f.uptime30d == 7500);
  REQUIRE(f.dailyHistory.size() == 90);
  CHECK(f.dailyHistory.front() == DayStatus{{2025, 12, 2}, ComponentStatus::down});
  CHECK(f.dailyHistory[1] == DayStatus{{2025, 12, 3}, ComponentStatus::no_data});  // unknown only
  CHECK(f.dailyHistory[86] == DayStatus{{2026, 2, 26}, ComponentStatus::maintenance});
  CHECK(f.dailyHistory[87] == DayStatus{{2026, 2, 27}, ComponentStatus::degraded});
  CHECK(f.dailyHistory[88] == DayStatus{{2026, 2, 28}, ComponentStatus::down});
  CHECK(f.dailyHistory.back() == DayStatus{{2026, 3, 1}, ComponentStatus::operational});
  // Unknown time is reported: the whole window less what the results vouched for.
  StateTime day = component_time(std::span<const CheckTime>(&exact, 1), maint, t, now);
  CHECK(day == StateTime{150 * kS, 0, 0, 12 * kH - 150 * kS, 0});

  // The same figures from day totals, exact spans only where exact_days asks for them.
  CheckTime rolled;
  rolled.exactDays = exact_days(now, maint, history_first_day(now));
  CHECK(rolled.exactDays ==
        std::vector<std::int64_t>{utc_day(now - kUptime30dMs), utc_day(t) - 3, utc_day(t) - 1});
  auto all = check_timeline(rs, rs.front().atMs, rs.front().atMs, now);
  rolled.days = time_by_utc_day(all);
  rolled.spans = all;
  CHECK(component_figures(std::span<const CheckTime>(&rolled, 1), maint, now, ComponentStatus::operational) ==
        f);
  // A component sums its checks' time: the same check twice keeps every ratio.
  std::vector<CheckTime> twice{exact, rolled};
  auto f2 = component_figures(twice, maint, now, ComponentStatus::operational);
  CHECK(f2 == f);
  CHECK(component_time(twice, maint, t, now).operationalMs == 300 * kS);
}

TEST_CASE("status: today's bar holds the present moment, even before a fresh result covers any time") {
  const std::int64_t t = midnight({2026, 11, 25}), now = t + 5 * kH;
  // Operational all morning; the down result that arrives now has covered no time yet.
  std::vector<Observation> rs{{t + kH, op, 75 * kS}, {now, dn, 75 * kS}};
  CheckTime exact = all_exact(rs, now);
  const std::span<const CheckTime> one(&exact, 1);
  CHECK(component_figures(one, {}, now, ComponentStatus::operational).dailyHistory.back().status ==
        ComponentStatus::operational);
  auto down = component_figures(one, {}, now, ComponentStatus::down);
  CHECK(down.dailyHistory.back() == DayStatus{{2026, 11, 25}, ComponentStatus::down});
  // Only today changes, and the uptimes still count time alone.
  CHECK(down.uptime24h == component_figures(one, {}, now, ComponentStatus::operational).uptime24h);
  CHECK(down.dailyHistory[88].status == ComponentStatus::no_data);
  // Degraded now raises an operational day but never lowers a day that was already down.
  CHECK(component_figures(one, {}, now, ComponentStatus::degraded).dailyHistory.back().status ==
        ComponentStatus::degraded);
  std::vector<Observation> was_down{{t + kH, dn, 75 * kS}, {now, deg, 75 * kS}};
  CheckTime worse = all_exact(was_down, now);
  CHECK(component_figures(std::span<const CheckTime>(&worse, 1), {}, now, ComponentStatus::degraded)
            .dailyHistory.back()
            .status == ComponentStatus::down);
  // Maintenance or no data now leave the day to its time.
  CHECK(component_figures(one, {}, now, ComponentStatus::maintenance).dailyHistory.back().status ==
        ComponentStatus::operational);
}

TEST_CASE("status: exact days cover yesterday, the 30-day edge and maintenance days") {
  const std::int64_t t = midnight({2026, 11, 20}), now = t + 5 * kH;
  const std::int64_t first = history_first_day(now);
  CHECK(first == utc_day(t) - 89);
  CHECK(exact_days(now, {}, first) == std::vector<std::int64_t>{utc_day(t) - 30, utc_day(t) - 1});
  // A maintenance over three days, one before the history: clipped; an empty one: nothing.
  std::vector<TimeRange> m{
      {first * kDayMs - kH, (first + 1) * kDayMs + kH}, {t, t}, {t - 10 * kDayMs, t - 9 * kDayMs}};
  CHECK(exact_days(now, m, first) ==
        std::vector<std::int64_t>{first, first + 1, utc_day(t) - 30, utc_day(t) - 10, utc_day(t) - 1});
}
