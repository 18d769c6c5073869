#include "core/status/coverage.h"

#include <algorithm>

namespace core::status {

namespace {

TimeState state_of(ProbeStatus s) {
  switch (s) {
    case ProbeStatus::operational:
      return TimeState::operational;
    case ProbeStatus::degraded:
      return TimeState::degraded;
    case ProbeStatus::down:
      break;
  }
  return TimeState::down;
}

void add(StateTime& t, TimeState state, std::int64_t ms) {
  switch (state) {
    case TimeState::operational:
      t.operationalMs += ms;
      return;
    case TimeState::degraded:
      t.degradedMs += ms;
      return;
    case TimeState::down:
      t.downMs += ms;
      return;
    case TimeState::unknown:
      break;
  }
  t.unknownMs += ms;
}

// Appends [start, end) in `state` clipped to [from, to), when not empty.
void push_clipped(std::vector<Span>& out, std::int64_t start, std::int64_t end, TimeState state,
                  std::int64_t from, std::int64_t to) {
  start = std::max(start, from);
  end = std::min(end, to);
  if (start < end) out.push_back({start, end, state});
}

}  // namespace

std::int64_t result_cover_ms(std::int64_t interval_ms, std::int64_t timeout_ms) {
  const std::int64_t interval = std::clamp<std::int64_t>(interval_ms, 0, kMaxCoverMs);
  const std::int64_t timeout = std::clamp<std::int64_t>(timeout_ms, 0, kMaxCoverMs);
  return std::clamp<std::int64_t>(interval + timeout + kCoverGraceMs, 1, kMaxCoverMs);
}

std::optional<int> StateTime::uptime_basis_points() const {
  const std::int64_t counted = upMs() + downMs;
  if (counted <= 0) return std::nullopt;
  // Up to 90 days of milliseconds times 10000 stays far below 2^63.
  return static_cast<int>(upMs() * 10000 / counted);
}

StateTime& StateTime::operator+=(const StateTime& o) {
  operationalMs += o.operationalMs;
  degradedMs += o.degradedMs;
  downMs += o.downMs;
  unknownMs += o.unknownMs;
  maintenanceMs += o.maintenanceMs;
  return *this;
}

std::vector<Span> spans_between(const Observation& previous, std::int64_t next_at_ms) {
  std::vector<Span> out;
  const std::int64_t covered =
      std::min(next_at_ms, previous.atMs + std::max<std::int64_t>(previous.coverMs, 0));
  if (previous.atMs < covered) out.push_back({previous.atMs, covered, state_of(previous.status)});
  if (covered < next_at_ms) out.push_back({std::max(covered, previous.atMs), next_at_ms, TimeState::unknown});
  return out;
}

std::vector<Span> check_timeline(std::span<const Observation> results, std::int64_t observed_since_ms,
                                 std::int64_t from_ms, std::int64_t to_ms) {
  std::vector<Span> out;
  const std::int64_t start = std::max(from_ms, observed_since_ms);
  if (start >= to_ms) return out;
  // Results before to_ms only; the first one that can reach `start` is at most kMaxCoverMs before it.
  auto end = std::lower_bound(results.begin(), results.end(), to_ms,
                              [](const Observation& o, std::int64_t t) { return o.atMs < t; });
  auto first = std::lower_bound(results.begin(), end, start - kMaxCoverMs,
                                [](const Observation& o, std::int64_t t) { return o.atMs < t; });
  std::int64_t cursor = start;  // everything before it is accounted for
  if (first == end || first->atMs > start) {
    // Nothing read vouches for the time from `start` to the first result (or to_ms): no result in the
    // kMaxCoverMs before `start` means none could reach it.
    const std::int64_t until = first == end ? to_ms : std::min(first->atMs, to_ms);
    push_clipped(out, start, until, TimeState::unknown, start, to_ms);
    cursor = until;
  }
  for (auto it = first; it != end; ++it) {
    const std::int64_t next = std::next(it) == end ? to_ms : std::next(it)->atMs;
    for (const Span& s : spans_between(*it, next))
      push_clipped(out, s.startMs, s.endMs, s.state, cursor, to_ms);
    cursor = std::max(cursor, next);
  }
  // Merge neighbours in the same state, so equal timelines compare equal however they were cut.
  std::vector<Span> merged;
  for (const Span& s : out) {
    if (!merged.empty() && merged.back().state == s.state && merged.back().endMs == s.startMs)
      merged.back().endMs = s.endMs;
    else
      merged.push_back(s);
  }
  return merged;
}

StateTime state_time(std::span<const Span> spans, std::span<const TimeRange> maintenance,
                     std::int64_t from_ms, std::int64_t to_ms) {
  StateTime t;
  for (const Span& s : spans) {
    const std::int64_t a = std::max(s.startMs, from_ms), b = std::min(s.endMs, to_ms);
    if (a >= b) continue;
    // The part inside maintenance: the union of the intervals' overlaps with [a, b).
    std::vector<TimeRange> parts;
    for (const TimeRange& m : maintenance) {
      const std::int64_t ma = std::max(a, m.startMs), mb = std::min(b, m.endMs);
      if (ma < mb) parts.push_back({ma, mb});
    }
    std::sort(parts.begin(), parts.end(),
              [](const TimeRange& x, const TimeRange& y) { return x.startMs < y.startMs; });
    std::int64_t in_maintenance = 0, reached = a;
    for (const TimeRange& p : parts) {
      const std::int64_t pa = std::max(p.startMs, reached);
      if (pa < p.endMs) in_maintenance += p.endMs - pa;
      reached = std::max(reached, p.endMs);
    }
    t.maintenanceMs += in_maintenance;
    add(t, s.state, (b - a) - in_maintenance);
  }
  return t;
}

ComponentStatus time_status(const StateTime& time, bool maintenance_overlaps) {
  if (time.downMs > 0) return ComponentStatus::down;
  if (time.degradedMs > 0) return ComponentStatus::degraded;
  if (time.operationalMs > 0) return ComponentStatus::operational;
  return maintenance_overlaps ? ComponentStatus::maintenance : ComponentStatus::no_data;
}

bool overlaps(std::span<const TimeRange> maintenance, std::int64_t start_ms, std::int64_t end_ms) {
  return std::any_of(maintenance.begin(), maintenance.end(),
                     [&](const TimeRange& r) { return r.startMs < end_ms && start_ms < r.endMs; });
}

std::int64_t utc_day(std::int64_t at_ms) {
  constexpr std::int64_t kDay = 24LL * 60 * 60 * 1000;
  return at_ms >= 0 ? at_ms / kDay : -((-at_ms + kDay - 1) / kDay);
}

std::vector<DayTime> time_by_utc_day(std::span<const Span> spans) {
  constexpr std::int64_t kDay = 24LL * 60 * 60 * 1000;
  std::vector<DayTime> out;
  for (const Span& s : spans) {
    for (std::int64_t a = s.startMs; a < s.endMs;) {
      const std::int64_t day = utc_day(a);
      const std::int64_t b = std::min(s.endMs, (day + 1) * kDay);
      if (out.empty() || out.back().day != day) {
        auto it = std::find_if(out.begin(), out.end(), [day](const DayTime& d) { return d.day == day; });
        if (it == out.end()) {
          out.push_back({day, {}});
          std::sort(out.begin(), out.end(), [](const DayTime& x, const DayTime& y) { return x.day < y.day; });
          it = std::find_if(out.begin(), out.end(), [day](const DayTime& d) { return d.day == day; });
        }
        add(it->time, s.state, b - a);
      } else {
        add(out.back().time, s.state, b - a);
      }
      a = b;
    }
  }
  return out;
}

}  // namespace core::status
