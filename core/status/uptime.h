#pragma once
// Uptime and the 90-day history of a check or a component (spec document 3: Component uptime24h,
// uptime30d, dailyHistory; "downtime during maintenance does not count against uptime"). A component's
// timeline is the union of its checks' verdicts, merged by the caller.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/date.h"
#include "core/status/maintenance.h"
#include "core/status/status.h"

namespace core::status {

inline constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;
inline constexpr std::int64_t kUptime24hMs = kDayMs;  // Limits: windowHours 24
inline constexpr std::int64_t kUptime30dMs = 30 * kDayMs;
inline constexpr int kDailyHistoryDays = 90;  // Limits: daily history 90 entries

// One probe verdict at a time. Timelines need not be sorted.
struct TimedVerdict {
  std::int64_t atMs = 0;
  ProbeStatus status = ProbeStatus::operational;
};

// Beats counted as in Uptime Kuma: every verdict is one beat, degraded counts as up (the service
// answered correctly, only slowly), beats inside a maintenance interval are left out entirely.
struct Uptime {
  std::int64_t upBeats = 0;
  std::int64_t countedBeats = 0;  // > 0

  // up / counted in basis points (10000 = 100 %), rounded down so that 100.00 % means no down beat at all.
  int basis_points() const { return static_cast<int>(upBeats * 10000 / countedBeats); }
  friend bool operator==(const Uptime&, const Uptime&) = default;
};

// Uptime over the window (window_end_ms - window_ms, window_end_ms]: a beat exactly at the end counts,
// one exactly window_ms earlier does not. nullopt when no beat counts (no data, or all in maintenance).
// Maintenance intervals are half-open [startMs, endMs) (core/status/maintenance.h).
// Precondition: window_ms > 0.
std::optional<Uptime> uptime(std::span<const TimedVerdict> timeline, std::span<const TimeRange> maintenance,
                             std::int64_t window_end_ms, std::int64_t window_ms);

// The status of the half-open period [start_ms, end_ms) (a day):
//   the worst beat outside maintenance (down > degraded > operational); with no such beat, maintenance
//   when a maintenance interval overlaps the period (every beat was in maintenance, or none was taken
//   while it covered the day), otherwise no-data.
ComponentStatus period_status(std::span<const TimedVerdict> timeline, std::span<const TimeRange> maintenance,
                              std::int64_t start_ms, std::int64_t end_ms);

struct DayStatus {
  CivilDate date;
  ComponentStatus status = ComponentStatus::no_data;

  friend bool operator==(const DayStatus&, const DayStatus&) = default;
};

// dailyHistory: 90 entries, oldest first, ending with `today` (UTC days; today's entry covers the part of
// the day so far). Each day is period_status over [00:00Z, next 00:00Z). UTC because a Page has no time
// zone field; a zoned page would call period_status with its own day boundaries.
// Precondition: `today` is a valid date.
std::vector<DayStatus> daily_history(std::span<const TimedVerdict> timeline,
                                     std::span<const TimeRange> maintenance, const CivilDate& today);

}  // namespace core::status
