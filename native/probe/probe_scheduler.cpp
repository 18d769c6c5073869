#include "native/probe/probe_scheduler.h"

#include <algorithm>
#include <chrono>

#include "native/probe/due_times.h"

namespace native::probe {
namespace {

std::int64_t interval_ms(const ScheduledCheck& check) {
  return std::int64_t{check.request.settings.intervalSeconds} * 1000;
}

}  // namespace

// What a worker took out of the queue: a copy, so upserts during the probe do not touch it.
struct ProbeScheduler::Run {
  ScheduledCheck check;
  std::uint64_t incarnation = 0;
  std::int64_t due_ms = 0;
  std::int64_t skipped = 0;
};

ProbeScheduler::ProbeScheduler(core::Clock& clock, SchedulerOptions options, ReportCallback on_report)
    : clock_(clock), options_(std::move(options)), on_report_(std::move(on_report)) {
  options_.probe.cancel = &cancel_;
  const int count = std::max(1, options_.workers);
  workers_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) workers_.emplace_back([this] { work(); });
}

ProbeScheduler::~ProbeScheduler() {
  stop();
}

void ProbeScheduler::queue(Entry& entry) {
  due_.emplace(entry.due_ms, entry.check.id);
}

void ProbeScheduler::unqueue(const Entry& entry) {
  due_.erase({entry.due_ms, entry.check.id});
}

core::Status ProbeScheduler::upsert(ScheduledCheck check) {
  CORE_TRY(core::status::validate_check_settings(check.request.settings));
  CORE_TRY(parse_probe_url(check.request.url));
  const std::int64_t now = clock_.now_ms();
  const std::int64_t interval = interval_ms(check);
  {
    std::lock_guard lock(mutex_);
    auto found = checks_.find(check.id);
    if (found == checks_.end()) {
      Entry entry;
      entry.due_ms = first_due_ms(now, interval, check_phase_ms(check.id, interval));
      entry.incarnation = next_incarnation_++;
      entry.check = std::move(check);
      auto [it, inserted] = checks_.emplace(entry.check.id, std::move(entry));
      queue(it->second);
    } else {
      Entry& entry = found->second;
      if (check.version < entry.check.version)
        return core::make_error("stale_check_version", "check " + check.id + " already has version " +
                                                           std::to_string(entry.check.version));
      const bool moved = interval != interval_ms(entry.check);
      entry.check = std::move(check);
      // In flight: finish() sees the new version and places the next run on the new grid.
      if (moved && !entry.in_flight) {
        unqueue(entry);
        entry.due_ms = first_due_ms(now, interval, check_phase_ms(entry.check.id, interval));
        entry.skipped = 0;
        queue(entry);
      }
    }
  }
  wake_.notify_one();
  return {};
}

bool ProbeScheduler::remove(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto found = checks_.find(id);
  if (found == checks_.end()) return false;
  if (!found->second.in_flight) unqueue(found->second);
  checks_.erase(found);
  return true;
}

std::size_t ProbeScheduler::size() const {
  std::lock_guard lock(mutex_);
  return checks_.size();
}

void ProbeScheduler::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cancel_ = true;
  wake_.notify_all();
  for (auto& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

// Waits until the earliest queued check is due, then takes it. False when stopping.
bool ProbeScheduler::take_due(std::unique_lock<std::mutex>& lock, Run* run) {
  while (!stopping_) {
    const std::int64_t now = clock_.now_ms();
    std::int64_t wait = options_.max_idle_wait_ms;
    if (!due_.empty()) {
      const auto [due_ms, id] = *due_.begin();
      if (due_ms <= now) {
        due_.erase(due_.begin());
        Entry& entry = checks_.find(id)->second;
        entry.in_flight = true;
        run->check = entry.check;
        run->incarnation = entry.incarnation;
        run->due_ms = entry.due_ms;
        run->skipped = entry.skipped;
        entry.skipped = 0;
        return true;
      }
      wait = std::min(wait, due_ms - now);
    }
    wake_.wait_for(lock, std::chrono::milliseconds(wait));
  }
  return false;
}

// Puts the check back on its grid. False when the check was removed meanwhile: its report is dropped.
bool ProbeScheduler::finish(const Run& run, std::int64_t finished_ms) {
  auto found = checks_.find(run.check.id);
  if (found == checks_.end() || found->second.incarnation != run.incarnation) return false;
  Entry& entry = found->second;
  entry.in_flight = false;
  const std::int64_t interval = interval_ms(entry.check);
  if (interval == interval_ms(run.check)) {
    const NextDue next = next_due_ms(run.due_ms, interval, finished_ms);
    entry.due_ms = next.due_ms;
    entry.skipped = next.skipped;
  } else {
    entry.due_ms = first_due_ms(finished_ms, interval, check_phase_ms(entry.check.id, interval));
    entry.skipped = 0;
  }
  queue(entry);
  return true;
}

void ProbeScheduler::work() {
  std::unique_lock lock(mutex_);
  Run run;
  while (take_due(lock, &run)) {
    lock.unlock();
    ProbeReport report;
    report.checkId = run.check.id;
    report.version = run.check.version;
    report.dueAtMs = run.due_ms;
    report.skippedRuns = run.skipped;
    report.startedAtMs = clock_.now_ms();
    auto probed = options_.probe_function(run.check.request, options_.probe);
    const std::int64_t finished = clock_.now_ms();
    bool deliver = true;
    if (probed) {
      report.result = std::move(*probed);
    } else if (probed.error().code == "probe_cancelled") {
      deliver = false;
    } else {
      // The probe could not run at all (libcurl unavailable): the check's history says so, as down.
      report.result.outcome.transport = core::status::ProbeTransport::error;
      report.result.error = probed.error().message;
    }
    report.verdict = core::status::classify_probe(run.check.request.settings, report.result.outcome);
    lock.lock();
    deliver = finish(run, finished) && deliver;
    if (deliver) {
      lock.unlock();
      on_report_(report);
      lock.lock();
    }
    // A probe just ended, so another worker may have been waiting on a check this one held.
    wake_.notify_one();
  }
}

}  // namespace native::probe
