#pragma once
// Honest uptime (issue 11; docs/status-rules.md, "Honest uptime"): probe results turned into time. Each
// result vouches for its check from its own time until the next expected probe plus a tolerance
// (`coverMs`); time no result vouches for (the edge was down, the probe worker was overloaded and ran
// late or skipped runs) is `unknown`. Uptime is up / (up + down) time: unknown and maintenance time are
// reported beside it and never count as up.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/date.h"
#include "core/status/maintenance.h"
#include "core/status/status.h"

namespace core::status {

// The tolerance past interval + timeout: scheduler wake-up and store latency.
inline constexpr std::int64_t kCoverGraceMs = 5000;
// The longest a result can vouch for: interval 3600 s + timeout up to the interval + the grace.
inline constexpr std::int64_t kMaxCoverMs = 2 * 3600'000 + kCoverGraceMs;

// How long a result vouches for a check probed every `interval_ms` with `timeout_ms`: the next result is
// due one interval later and arrives up to one timeout after that (a result is stamped when its probe
// ends), plus kCoverGraceMs. Clamped to [1, kMaxCoverMs].
std::int64_t result_cover_ms(std::int64_t interval_ms, std::int64_t timeout_ms);

// One stored result as the timeline sees it.
struct Observation {
  std::int64_t atMs = 0;
  ProbeStatus status = ProbeStatus::operational;
  std::int64_t coverMs = 0;  // result_cover_ms of the check's settings when it was recorded

  friend bool operator==(const Observation&, const Observation&) = default;
};

// What a stretch of a check's time was.
enum class TimeState { operational, degraded, down, unknown };

// [startMs, endMs) in one state; never empty.
struct Span {
  std::int64_t startMs = 0;
  std::int64_t endMs = 0;
  TimeState state = TimeState::unknown;

  friend bool operator==(const Span&, const Span&) = default;
};

// Milliseconds per state. `up` is operational + degraded: a degraded service answered correctly, only
// slowly. maintenanceMs is time inside a maintenance interval, whatever was observed then.
struct StateTime {
  std::int64_t operationalMs = 0;
  std::int64_t degradedMs = 0;
  std::int64_t downMs = 0;
  std::int64_t unknownMs = 0;
  std::int64_t maintenanceMs = 0;

  std::int64_t upMs() const { return operationalMs + degradedMs; }
  // up / (up + down) in basis points, rounded down (100.00 % only without any down time); nullopt when
  // nothing up or down was observed (no data, only unknown or maintenance time).
  std::optional<int> uptime_basis_points() const;
  StateTime& operator+=(const StateTime& other);
  friend bool operator==(const StateTime&, const StateTime&) = default;
};

// The time between a result and the next one, `next_at_ms` >= previous.atMs: its own state up to
// min(next, at + cover), unknown for the rest. Empty when both are at the same millisecond.
std::vector<Span> spans_between(const Observation& previous, std::int64_t next_at_ms);

// A check's timeline over [from_ms, to_ms), to_ms at most "now": `results` sorted by time, holding every
// result with atMs in [from_ms - kMaxCoverMs, to_ms) (more is harmless); `observed_since_ms` is the time
// of the check's first result ever. Covers exactly [max(from_ms, observed_since_ms), to_ms): before the
// first result the check did not exist to the service, which is not unknown time. Results at or after
// to_ms are ignored; the last one before it vouches until its cover ends, then unknown up to to_ms.
std::vector<Span> check_timeline(std::span<const Observation> results, std::int64_t observed_since_ms,
                                 std::int64_t from_ms, std::int64_t to_ms);

// The time of `spans` inside [from_ms, to_ms), time inside a maintenance interval (half-open) counted as
// maintenanceMs instead of its state.
StateTime state_time(std::span<const Span> spans, std::span<const TimeRange> maintenance,
                     std::int64_t from_ms, std::int64_t to_ms);

// A day's (or any period's) status from its time: down if any down time, else degraded if any, else
// operational if any; with none of those, maintenance when a maintenance interval overlapped the period,
// otherwise no-data (only unknown time, or nothing). Unknown time never lowers or raises a day.
ComponentStatus time_status(const StateTime& time, bool maintenance_overlaps);

// Whether any interval overlaps [start_ms, end_ms).
bool overlaps(std::span<const TimeRange> maintenance, std::int64_t start_ms, std::int64_t end_ms);

// The UTC day index (days since 1970-01-01, floored) of a time.
std::int64_t utc_day(std::int64_t at_ms);

// `spans` cut at UTC midnights: the time per day, in day order, days without time left out. No
// maintenance (rollups store observations; maintenance is applied when read).
struct DayTime {
  std::int64_t day = 0;  // utc_day
  StateTime time;
  friend bool operator==(const DayTime&, const DayTime&) = default;
};
std::vector<DayTime> time_by_utc_day(std::span<const Span> spans);

}  // namespace core::status
