#pragma once
// Runs many checks, each at its interval on its own jittered grid (due_times.h), on a fixed pool of
// worker threads (docs/status-probes.md, "Scheduling").
//
// Contract:
// - at most `workers` probes are in flight at once; a due check waits for a free worker, and every report
//   says when the probe was due and when it started, so the caller can record late time as unknown
//   instead of up (honest uptime);
// - a check never has two probes in flight or pending; runs an overloaded pool could not start before the
//   next one was due are skipped and counted in the next report (`skippedRuns`);
// - checks are added, updated and removed at runtime by id; each carries a version, and an update with an
//   older version than the one held is refused, so updates delivered out of order cannot roll back;
// - the callback runs on worker threads, several at once, outside the scheduler's lock (it may call
//   upsert or remove); it is never called after stop() returns;
// - stop() cancels in-flight probes (within about a second; never later than their own timeouts) and
//   drops their results: a cancelled probe measured nothing.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "core/status/probe.h"
#include "native/probe/http_probe.h"

namespace native::probe {

struct ScheduledCheck {
  std::string id;
  std::int64_t version = 0;
  ProbeRequest request;
};

struct ProbeReport {
  std::string checkId;
  std::int64_t version = 0;      // the version of the settings the probe ran with
  std::int64_t dueAtMs = 0;      // the grid point this run belongs to (clock ms)
  std::int64_t startedAtMs = 0;  // when a worker started it; startedAtMs - dueAtMs is the lateness
  std::int64_t skippedRuns = 0;  // grid points since the previous report that never ran
  ProbeResult result;
  core::status::ProbeVerdict verdict;  // classify_probe with the settings the probe ran with

  std::int64_t late_ms() const { return startedAtMs - dueAtMs; }
};

using ProbeFunction = std::function<core::Result<ProbeResult>(const ProbeRequest&, const ProbeOptions&)>;
using ReportCallback = std::function<void(const ProbeReport&)>;

struct SchedulerOptions {
  int workers = 16;
  ProbeOptions probe;  // its `cancel` is the scheduler's own; a value set here is ignored
  ProbeFunction probe_function = http_probe;
  // The longest an idle worker sleeps before it looks at the clock again. Due times are read from the
  // injected clock, which may jump (wall time) or be moved by hand (tests), so waits are capped.
  std::int64_t max_idle_wait_ms = 1000;
};

class ProbeScheduler {
 public:
  // Starts the workers at once. Precondition: options.workers >= 1, on_report is set.
  ProbeScheduler(core::Clock& clock, SchedulerOptions options, ReportCallback on_report);
  ~ProbeScheduler();  // stop()
  ProbeScheduler(const ProbeScheduler&) = delete;
  ProbeScheduler& operator=(const ProbeScheduler&) = delete;

  // Adds a check, or updates the one with the same id. A new check first runs at its first grid point
  // (at most one interval away). An update that changes the interval moves the check to the new grid;
  // other changes keep its due time; an update during a probe applies from the next run.
  // Errors: those of core::status::validate_check_settings and parse_probe_url; `stale_check_version`
  // when the held version is newer (an equal version replaces the settings).
  core::Status upsert(ScheduledCheck check);

  // Removes a check; a probe of it in flight finishes but is not reported. False when the id is unknown.
  bool remove(const std::string& id);

  // Idempotent; after it returns no worker runs and no report is delivered.
  void stop();

  std::size_t size() const;

 private:
  struct Entry {
    ScheduledCheck check;
    std::int64_t due_ms = 0;
    std::int64_t skipped = 0;       // to report with the next run
    std::uint64_t incarnation = 0;  // tells a re-added id from the removed one
    bool in_flight = false;
  };
  struct Run;

  void work();
  bool take_due(std::unique_lock<std::mutex>& lock, Run* run);
  bool finish(const Run& run, std::int64_t finished_ms);
  void queue(Entry& entry);
  void unqueue(const Entry& entry);

  core::Clock& clock_;
  SchedulerOptions options_;
  ReportCallback on_report_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Entry, std::less<>> checks_;
  std::set<std::pair<std::int64_t, std::string>> due_;  // (due_ms, id) of checks not in flight
  std::uint64_t next_incarnation_ = 1;
  bool stopping_ = false;
  std::atomic<bool> cancel_{false};
  std::vector<std::thread> workers_;
};

}  // namespace native::probe
