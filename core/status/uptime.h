#pragma once
// Uptime and the 90-day history of a component (spec document 3: Component uptime24h, uptime30d,
// dailyHistory; "downtime during maintenance does not count against uptime"), from time rather than
// beats: core/status/coverage.h turns results into time, this file sums a component's checks over the
// snapshot's windows (docs/status-rules.md, "Honest uptime").
//
// A check's time comes in two kinds, so that a snapshot need not read 90 days of results: whole-day
// totals (the store's per-day rollups, maintenance not applied) and exact spans for the days that need
// more (yesterday, the partial first day of the 30-day window, days a maintenance interval touches). Both are
// the same check_timeline cut differently, so the figures agree whichever was read.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/date.h"
#include "core/status/coverage.h"
#include "core/status/maintenance.h"
#include "core/status/status.h"

namespace core::status {

inline constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;
inline constexpr std::int64_t kUptime24hMs = kDayMs;  // Limits: windowHours 24
inline constexpr std::int64_t kUptime30dMs = 30 * kDayMs;
inline constexpr int kDailyHistoryDays = 90;  // Limits: daily history 90 entries

// What is known of one check's time.
struct CheckTime {
  std::vector<DayTime> days;            // totals of the days not in exactDays, any order
  std::vector<std::int64_t> exactDays;  // UTC days whose time `spans` holds exactly (sorted)
  std::vector<Span> spans;              // the check's timeline over exactDays (more is ignored)
};

// The days a snapshot at now_ms needs exactly: yesterday (the 24-hour window starts in it), the first day
// of the 30-day window, and every day of [first_day, today] a maintenance interval overlaps. Sorted,
// unique. Today needs no exact spans: its total up to now is the rollup plus the open tail after the
// newest result.
std::vector<std::int64_t> exact_days(std::int64_t now_ms, std::span<const TimeRange> maintenance,
                                     std::int64_t first_day);

// The UTC days of [first_day, last_day] a maintenance interval overlaps, sorted, unique: the days a
// report over whole days needs exactly.
std::vector<std::int64_t> maintenance_days(std::span<const TimeRange> maintenance, std::int64_t first_day,
                                           std::int64_t last_day);

// A check's time over [from_ms, to_ms) with maintenance applied. Precondition: every day the range cuts
// short, and every day a maintenance interval overlaps, is in exactDays.
StateTime check_time(const CheckTime& check, std::span<const TimeRange> maintenance, std::int64_t from_ms,
                     std::int64_t to_ms);

// A component's time: the sum of its checks' (check-time; with one check, wall-clock time).
StateTime component_time(std::span<const CheckTime> checks, std::span<const TimeRange> maintenance,
                         std::int64_t from_ms, std::int64_t to_ms);

struct DayStatus {
  CivilDate date;
  ComponentStatus status = ComponentStatus::no_data;

  friend bool operator==(const DayStatus&, const DayStatus&) = default;
};

// The snapshot's figures of a component at now_ms. Uptimes in basis points (rounded down), nullopt when
// nothing up or down was observed in the window; windows [now - 24 h, now) and [now - 30 d, now).
// dailyHistory: 90 UTC days, oldest first, ending with today (so far), each time_status of the day's time.
// Today also holds the present moment: a component down or degraded now (`current`) shows so on today's bar
// even while the result that says so is too fresh to have covered any time (a result stamped now_ms).
struct ComponentFigures {
  std::optional<int> uptime24h;
  std::optional<int> uptime30d;
  std::vector<DayStatus> dailyHistory;

  friend bool operator==(const ComponentFigures&, const ComponentFigures&) = default;
};
ComponentFigures component_figures(std::span<const CheckTime> checks, std::span<const TimeRange> maintenance,
                                   std::int64_t now_ms, ComponentStatus current);

// The first UTC day of the 90-day history at now_ms.
std::int64_t history_first_day(std::int64_t now_ms);

}  // namespace core::status
