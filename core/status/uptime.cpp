#include "core/status/uptime.h"

#include <algorithm>

namespace core::status {

namespace {

bool in_maintenance(std::span<const TimeRange> maintenance, std::int64_t t) {
  return std::any_of(maintenance.begin(), maintenance.end(),
                     [t](const TimeRange& r) { return r.contains(t); });
}

bool overlaps(std::span<const TimeRange> maintenance, std::int64_t start, std::int64_t end) {
  return std::any_of(maintenance.begin(), maintenance.end(),
                     [&](const TimeRange& r) { return r.startMs < end && start < r.endMs; });
}

// Higher is worse; -1 for "no beat yet".
int rank(ProbeStatus s) {
  switch (s) {
    case ProbeStatus::operational:
      return 0;
    case ProbeStatus::degraded:
      return 1;
    case ProbeStatus::down:
      break;
  }
  return 2;
}

ComponentStatus from_rank(int r, bool maintenance_overlaps) {
  switch (r) {
    case 0:
      return ComponentStatus::operational;
    case 1:
      return ComponentStatus::degraded;
    case 2:
      return ComponentStatus::down;
    default:
      break;
  }
  return maintenance_overlaps ? ComponentStatus::maintenance : ComponentStatus::no_data;
}

}  // namespace

std::optional<Uptime> uptime(std::span<const TimedVerdict> timeline, std::span<const TimeRange> maintenance,
                             std::int64_t window_end_ms, std::int64_t window_ms) {
  Uptime u;
  for (const TimedVerdict& v : timeline) {
    // The window is (end - window_ms, end]: a beat at the end counts, one window_ms before it does not.
    if (v.atMs > window_end_ms || window_end_ms - v.atMs >= window_ms) continue;
    if (in_maintenance(maintenance, v.atMs)) continue;
    ++u.countedBeats;
    if (v.status != ProbeStatus::down) ++u.upBeats;
  }
  if (u.countedBeats == 0) return std::nullopt;
  return u;
}

ComponentStatus period_status(std::span<const TimedVerdict> timeline, std::span<const TimeRange> maintenance,
                              std::int64_t start_ms, std::int64_t end_ms) {
  int worst = -1;
  for (const TimedVerdict& v : timeline) {
    if (v.atMs < start_ms || v.atMs >= end_ms || in_maintenance(maintenance, v.atMs)) continue;
    worst = std::max(worst, rank(v.status));
  }
  return from_rank(worst, overlaps(maintenance, start_ms, end_ms));
}

std::vector<DayStatus> daily_history(std::span<const TimedVerdict> timeline,
                                     std::span<const TimeRange> maintenance, const CivilDate& today) {
  // One pass over the timeline (90 days of 30-second probes is about 260 000 beats) instead of one per day.
  const CivilDate first = add_days(today, -(kDailyHistoryDays - 1));
  const std::int64_t base_ms = days_from_civil(first) * kDayMs;
  const std::int64_t end_ms = base_ms + kDailyHistoryDays * kDayMs;
  std::vector<int> worst(kDailyHistoryDays, -1);
  for (const TimedVerdict& v : timeline) {
    if (v.atMs < base_ms || v.atMs >= end_ms || in_maintenance(maintenance, v.atMs)) continue;
    auto day = static_cast<std::size_t>((v.atMs - base_ms) / kDayMs);
    worst[day] = std::max(worst[day], rank(v.status));
  }
  std::vector<DayStatus> history;
  history.reserve(kDailyHistoryDays);
  for (int i = 0; i < kDailyHistoryDays; ++i) {
    const std::int64_t start = base_ms + i * kDayMs;
    history.push_back({add_days(first, i), from_rank(worst[static_cast<std::size_t>(i)],
                                                     overlaps(maintenance, start, start + kDayMs))});
  }
  return history;
}

}  // namespace core::status
