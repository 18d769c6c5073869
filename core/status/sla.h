#pragma once
// The SLA report of a status page (issue 11; docs/status-api.md, "SLA report"): per component and period
// of UTC days, up, degraded, down, maintenance and unknown time, the uptime and the worst day, from the
// honest-uptime time of core/status/coverage.h.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/date.h"
#include "core/result.h"
#include "core/status/coverage.h"

namespace core::status {

inline constexpr int kSlaMaxDays = 366;  // a leap year

// The inclusive period [from, to] of UTC days.
struct SlaPeriod {
  CivilDate from;
  CivilDate to;
  int days() const { return static_cast<int>(days_between(from, to)) + 1; }
  friend bool operator==(const SlaPeriod&, const SlaPeriod&) = default;
};

// The period of the query parameters `from` and `to` (YYYY-MM-DD) on `today` (UTC). Errors, first that
// applies, all `invalid_period`: a parameter missing or not a calendar date; from after to; to after today
// (the future has no time yet); more than kSlaMaxDays days.
Result<SlaPeriod> parse_sla_period(std::optional<std::string_view> from, std::optional<std::string_view> to,
                                   const CivilDate& today);

// A component over the period: the days' time summed, the uptime (basis points, rounded down; none when
// nothing up or down was observed), and the worst day: the lowest uptime of a day that has one, the
// earliest of equals; none when no day has one.
struct SlaFigures {
  StateTime total;
  std::optional<int> uptime;
  std::optional<CivilDate> worstDay;
  std::optional<int> worstDayUptime;
  friend bool operator==(const SlaFigures&, const SlaFigures&) = default;
};
// `days`: the time of each day of the period in order, days[0] being period.from.
SlaFigures sla_figures(const SlaPeriod& period, std::span<const StateTime> days);

}  // namespace core::status
