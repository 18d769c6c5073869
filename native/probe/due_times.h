#pragma once
// When a scheduled check is due (docs/status-probes.md, "Scheduling"). Pure functions of the times they are
// given, so the rules are tested without threads or sleeping.
//
// Each check runs on its own grid {phase + k * interval} anchored at the Unix epoch. The phase comes from
// the check id, so 1,000 checks added at once spread over their interval instead of firing together, and
// a check keeps its phase across restarts of the worker. Due times are grid points, never "last run +
// interval", so they do not drift with probe durations or late starts.

#include <cstdint>
#include <string_view>

namespace native::probe {

// The check's offset on its grid, in [0, interval_ms): a hash of the id (FNV-1a 64) reduced modulo the
// interval. Precondition: interval_ms > 0.
std::int64_t check_phase_ms(std::string_view check_id, std::int64_t interval_ms);

// The first grid point at or after now_ms: when a check added (or given a new interval) at now_ms first
// runs. It is at most one interval away. Precondition: interval_ms > 0, 0 <= phase_ms < interval_ms.
std::int64_t first_due_ms(std::int64_t now_ms, std::int64_t interval_ms, std::int64_t phase_ms);

struct NextDue {
  std::int64_t due_ms = 0;
  // Grid points after the previous run that will never run: a later one was already due when the previous
  // probe ended (worker overload, a stopped process). The caller reports them so that time can be
  // recorded as unknown rather than as up.
  std::int64_t skipped = 0;
};

// The run after the one due at previous_due_ms, when that run ended at now_ms: the next grid point,
// unless later grid points have also passed; then the latest point at or before now_ms (it runs at once,
// late) and the ones before it are skipped. A late probe is thus run late, never dropped, and a check never
// has more than one run pending. Precondition: interval_ms > 0.
NextDue next_due_ms(std::int64_t previous_due_ms, std::int64_t interval_ms, std::int64_t now_ms);

}  // namespace native::probe
