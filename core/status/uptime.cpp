#include "core/status/uptime.h"

#include <algorithm>

namespace core::status {

namespace {

bool is_exact(const CheckTime& c, std::int64_t day) {
  return std::binary_search(c.exactDays.begin(), c.exactDays.end(), day);
}

}  // namespace

std::int64_t history_first_day(std::int64_t now_ms) {
  return utc_day(now_ms) - (kDailyHistoryDays - 1);
}

std::vector<std::int64_t> maintenance_days(std::span<const TimeRange> maintenance, std::int64_t first_day,
                                           std::int64_t last_day) {
  std::vector<std::int64_t> days;
  for (const TimeRange& m : maintenance) {
    if (m.endMs <= m.startMs) continue;
    const std::int64_t from = std::max(first_day, utc_day(m.startMs));
    const std::int64_t to = std::min(last_day, utc_day(m.endMs - 1));
    for (std::int64_t d = from; d <= to; ++d) days.push_back(d);
  }
  std::sort(days.begin(), days.end());
  days.erase(std::unique(days.begin(), days.end()), days.end());
  return days;
}

std::vector<std::int64_t> exact_days(std::int64_t now_ms, std::span<const TimeRange> maintenance,
                                     std::int64_t first_day) {
  const std::int64_t today = utc_day(now_ms);
  std::vector<std::int64_t> days = maintenance_days(maintenance, first_day, today);
  days.push_back(today - 1);
  days.push_back(utc_day(now_ms - kUptime30dMs));
  std::sort(days.begin(), days.end());
  days.erase(std::unique(days.begin(), days.end()), days.end());
  return days;
}

StateTime check_time(const CheckTime& check, std::span<const TimeRange> maintenance, std::int64_t from_ms,
                     std::int64_t to_ms) {
  StateTime total;
  if (from_ms >= to_ms) return total;
  for (std::int64_t day = utc_day(from_ms); day <= utc_day(to_ms - 1); ++day) {
    const std::int64_t a = std::max(from_ms, day * kDayMs), b = std::min(to_ms, (day + 1) * kDayMs);
    if (is_exact(check, day)) {
      // Spans are sorted and disjoint: only those reaching into [a, b) (90 days of 30-second results are
      // some 260,000 spans; a pass over all of them per day would dominate the raw path).
      auto first = std::partition_point(check.spans.begin(), check.spans.end(),
                                        [a](const Span& s) { return s.endMs <= a; });
      auto last =
          std::partition_point(first, check.spans.end(), [b](const Span& s) { return s.startMs < b; });
      // (pointer and count: libc++ 14, the wasm build's, has no span constructor from vector iterators)
      total += state_time(std::span<const Span>(check.spans.data() + (first - check.spans.begin()),
                                                static_cast<std::size_t>(last - first)),
                          maintenance, a, b);
      continue;
    }
    for (const DayTime& d : check.days)
      if (d.day == day) total += d.time;
  }
  return total;
}

StateTime component_time(std::span<const CheckTime> checks, std::span<const TimeRange> maintenance,
                         std::int64_t from_ms, std::int64_t to_ms) {
  StateTime total;
  for (const CheckTime& c : checks) total += check_time(c, maintenance, from_ms, to_ms);
  return total;
}

ComponentFigures component_figures(std::span<const CheckTime> checks, std::span<const TimeRange> maintenance,
                                   std::int64_t now_ms, ComponentStatus current) {
  ComponentFigures f;
  const std::int64_t end = now_ms;  // time is known up to now; a result stamped now has no time yet
  f.uptime24h = component_time(checks, maintenance, end - kUptime24hMs, end).uptime_basis_points();
  f.uptime30d = component_time(checks, maintenance, end - kUptime30dMs, end).uptime_basis_points();
  const std::int64_t first = history_first_day(now_ms);
  f.dailyHistory.reserve(kDailyHistoryDays);
  for (int i = 0; i < kDailyHistoryDays; ++i) {
    const std::int64_t day = first + i, start = day * kDayMs;
    const std::int64_t stop = std::min(start + kDayMs, end);
    f.dailyHistory.push_back(
        {civil_from_days(day), time_status(component_time(checks, maintenance, start, stop),
                                           overlaps(maintenance, start, start + kDayMs))});
  }
  DayStatus& today = f.dailyHistory.back();
  if (current == ComponentStatus::down ||
      (current == ComponentStatus::degraded && today.status != ComponentStatus::down))
    today.status = current;
  return f;
}

}  // namespace core::status
