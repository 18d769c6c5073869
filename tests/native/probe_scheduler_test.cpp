// The probe scheduler (native/probe/probe_scheduler.h) and its due-time rules (due_times.h). Time is a
// ManualClock moved by hand; the workers are real threads, so tests wait (with generous bounds) for reports
// rather than asserting tight timings.

#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "native/probe/due_times.h"
#include "native/probe/probe_scheduler.h"
#include "tests/native/probe_servers.h"

namespace {

using native::probe::check_phase_ms;
using native::probe::first_due_ms;
using native::probe::next_due_ms;
using native::probe::ProbeReport;
using native::probe::ProbeScheduler;
using native::probe::ScheduledCheck;
using native::probe::SchedulerOptions;

constexpr std::int64_t kT0 = 1'700'000'000'000;  // a Unix time in ms
constexpr std::int64_t kInterval = 30'000;

class Reports {
 public:
  void add(const ProbeReport& report) {
    {
      std::lock_guard lock(mutex_);
      reports_.push_back(report);
    }
    cv_.notify_all();
  }
  // Waits (real time) until at least n reports arrived; false after 10 s.
  bool wait_for(std::size_t n) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, std::chrono::seconds(10), [&] { return reports_.size() >= n; });
  }
  std::vector<ProbeReport> all() {
    std::lock_guard lock(mutex_);
    return reports_;
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return reports_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<ProbeReport> reports_;
};

ScheduledCheck check(const std::string& id, const std::string& url = "http://127.0.0.1:9/",
                     int interval_seconds = 30, std::int64_t version = 1) {
  ScheduledCheck c;
  c.id = id;
  c.version = version;
  c.request.url = url;
  c.request.settings.intervalSeconds = interval_seconds;
  c.request.settings.timeoutMs = 5000;
  c.request.settings.degradedLatencyMs = 2000;
  return c;
}

// A probe that answers 200 at once, without I/O.
core::Result<native::probe::ProbeResult> instant_probe(const native::probe::ProbeRequest&,
                                                       const native::probe::ProbeOptions&) {
  native::probe::ProbeResult r;
  r.outcome.transport = core::status::ProbeTransport::response;
  r.outcome.httpStatus = 200;
  r.outcome.latencyMs = 1;
  return r;
}

SchedulerOptions fast_options(int workers) {
  SchedulerOptions options;
  options.workers = workers;
  options.max_idle_wait_ms = 2;  // the ManualClock moves by hand: look at it often
  options.probe_function = instant_probe;
  return options;
}

void settle() {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace

TEST_SUITE("probe") {
  TEST_CASE("due times: the first run is the first grid point at or after now") {
    CHECK(first_due_ms(1000, 30000, 500) == 30500);
    CHECK(first_due_ms(500, 30000, 500) == 500);
    CHECK(first_due_ms(499, 30000, 500) == 500);
    CHECK(first_due_ms(-100, 1000, 0) == 0);
    constexpr std::int64_t aligned = 1'700'000'010'000;  // a multiple of 30 s
    CHECK(first_due_ms(aligned + 7, kInterval, 0) == aligned + kInterval);
    CHECK(first_due_ms(aligned, kInterval, 0) == aligned);
    for (std::int64_t now = kT0; now < kT0 + 3 * kInterval; now += 997) {
      const std::int64_t due = first_due_ms(now, kInterval, 12345);
      CHECK(due >= now);
      CHECK(due < now + kInterval);
      CHECK((due - 12345) % kInterval == 0);
    }
  }

  TEST_CASE("due times: the next run stays on the grid; late runs are run late, superseded ones skipped") {
    CHECK(next_due_ms(0, 30000, 500).due_ms == 30000);
    CHECK(next_due_ms(0, 30000, 500).skipped == 0);
    // Ended after the next point was due: that run starts at once, late, nothing skipped.
    CHECK(next_due_ms(0, 30000, 30005).due_ms == 30000);
    CHECK(next_due_ms(0, 30000, 59999).due_ms == 30000);
    CHECK(next_due_ms(0, 30000, 59999).skipped == 0);
    // Two points passed: the latest runs, the one before it is skipped.
    CHECK(next_due_ms(0, 30000, 60000).due_ms == 60000);
    CHECK(next_due_ms(0, 30000, 60000).skipped == 1);
    CHECK(next_due_ms(0, 30000, 95000).due_ms == 90000);
    CHECK(next_due_ms(0, 30000, 95000).skipped == 2);

    // No drift: however long each probe takes (up to its timeout, at most the interval), the runs stay on
    // the grid.
    std::int64_t due = 777;
    for (int k = 0; k < 1000; ++k) {
      const std::int64_t ended = due + (k * 7919) % 29000;
      due = next_due_ms(due, kInterval, ended).due_ms;
    }
    CHECK(due == 777 + 1000 * kInterval);
  }

  TEST_CASE("due times: phases of 1,000 checks spread over the interval") {
    std::vector<int> buckets(10, 0);
    for (int i = 0; i < 1000; ++i) {
      const std::int64_t phase = check_phase_ms("chk_" + std::to_string(i), kInterval);
      REQUIRE(phase >= 0);
      REQUIRE(phase < kInterval);
      ++buckets[static_cast<std::size_t>(phase / (kInterval / 10))];
    }
    for (const int count : buckets) {
      CHECK(count >= 60);  // 100 expected; a standard deviation is about 9.5
      CHECK(count <= 140);
    }
    CHECK(check_phase_ms("chk_1", kInterval) == check_phase_ms("chk_1", kInterval));  // stable
  }

  TEST_CASE("scheduler: first runs spread over the interval, later runs on the grid, never early") {
    core::ManualClock clock(kT0);
    Reports reports;
    ProbeScheduler scheduler(clock, fast_options(4), [&](const ProbeReport& r) { reports.add(r); });
    std::map<std::string, std::int64_t> first;
    for (int i = 0; i < 50; ++i) {
      const std::string id = "chk_" + std::to_string(i);
      REQUIRE(scheduler.upsert(check(id)).ok());
      first[id] = first_due_ms(kT0, kInterval, check_phase_ms(id, kInterval));
    }
    std::size_t expected = 0;
    for (std::int64_t now = kT0; now <= kT0 + 2 * kInterval; now += 1000) {
      clock.set_ms(now);
      expected = 0;
      for (const auto& [id, due] : first) expected += now >= due ? 1 + (now - due) / kInterval : 0;
      REQUIRE(reports.wait_for(expected));
    }
    settle();
    const auto all = reports.all();
    CHECK(all.size() == expected);
    std::map<std::string, int> runs;
    std::int64_t earliest = kT0 + kInterval, latest = kT0;
    for (const auto& r : all) {
      const int k = runs[r.checkId]++;
      CHECK(r.dueAtMs == first[r.checkId] + k * kInterval);
      CHECK(r.startedAtMs >= r.dueAtMs);
      CHECK(r.late_ms() < 1000);  // the clock moves in 1 s steps
      CHECK(r.skippedRuns == 0);
      CHECK(r.verdict.status == core::status::ProbeStatus::operational);
      if (k == 0) {
        earliest = std::min(earliest, r.dueAtMs);
        latest = std::max(latest, r.dueAtMs);
      }
    }
    CHECK(runs.size() == 50);
    // Spread: the first runs span most of the interval rather than one instant.
    CHECK(latest - earliest > kInterval / 2);
  }

  TEST_CASE("scheduler: never more probes in flight than workers, measured by the server") {
    probe_test::TargetServer server;
    core::ManualClock clock(kT0);
    Reports reports;
    SchedulerOptions options = fast_options(3);
    options.probe_function = native::probe::http_probe;
    ProbeScheduler scheduler(clock, options, [&](const ProbeReport& r) { reports.add(r); });
    for (int i = 0; i < 12; ++i)
      REQUIRE(scheduler.upsert(check("hold_" + std::to_string(i), server.url("/hold?ms=300"))).ok());
    clock.advance_ms(kInterval);  // every check is due
    REQUIRE(reports.wait_for(12));
    CHECK(server.in_flight_peak() == 3);
    for (const auto& r : reports.all()) {
      CHECK(r.result.outcome.transport == core::status::ProbeTransport::response);
      CHECK(r.result.outcome.httpStatus == 200);
    }
  }

  TEST_CASE("scheduler: a saturated pool starts probes late and says how late; superseded runs are counted") {
    core::ManualClock clock(kT0);
    Reports reports;
    std::mutex gate_mutex;
    std::condition_variable gate_cv;
    bool gate_open = false;
    int calls = 0;
    SchedulerOptions options = fast_options(1);
    options.probe_function = [&](const native::probe::ProbeRequest& req,
                                 const native::probe::ProbeOptions& o) {
      std::unique_lock lock(gate_mutex);
      if (++calls == 1) {
        gate_cv.notify_all();
        gate_cv.wait(lock, [&] { return gate_open; });
      }
      return instant_probe(req, o);
    };
    ProbeScheduler scheduler(clock, options, [&](const ProbeReport& r) { reports.add(r); });
    REQUIRE(scheduler.upsert(check("a")).ok());
    REQUIRE(scheduler.upsert(check("b")).ok());
    const std::int64_t due_a = first_due_ms(kT0, kInterval, check_phase_ms("a", kInterval));
    const std::int64_t due_b = first_due_ms(kT0, kInterval, check_phase_ms("b", kInterval));
    const std::string blocked = due_a <= due_b ? "a" : "b";
    const std::string waiting = due_a <= due_b ? "b" : "a";
    const std::int64_t due_blocked = std::min(due_a, due_b), due_waiting = std::max(due_a, due_b);

    clock.set_ms(kT0 + kInterval);  // both due; the one worker takes the earlier and hangs
    {
      std::unique_lock lock(gate_mutex);
      REQUIRE(gate_cv.wait_for(lock, std::chrono::seconds(10), [&] { return calls == 1; }));
    }
    settle();
    clock.advance_ms(65'000);  // the other waits 65 s of clock time for the worker
    {
      std::lock_guard lock(gate_mutex);
      gate_open = true;
    }
    gate_cv.notify_all();
    REQUIRE(reports.wait_for(3));  // blocked, waiting, then blocked again (overdue)
    const auto all = reports.all();
    CHECK(all[0].checkId == blocked);
    CHECK(all[0].late_ms() == kT0 + kInterval - due_blocked);
    CHECK(all[1].checkId == waiting);
    CHECK(all[1].late_ms() == kT0 + kInterval + 65'000 - due_waiting);
    CHECK(all[1].late_ms() >= 65'000);
    CHECK(all[2].checkId == blocked);
    const std::int64_t behind = kT0 + kInterval + 65'000 - due_blocked;
    CHECK(all[2].skippedRuns == behind / kInterval - 1);
    CHECK(all[2].dueAtMs == due_blocked + (behind / kInterval) * kInterval);
  }

  TEST_CASE("scheduler: checks are added, updated and removed at runtime; stale versions are refused") {
    core::ManualClock clock(kT0);
    Reports reports;
    ProbeScheduler scheduler(clock, fast_options(2), [&](const ProbeReport& r) { reports.add(r); });

    auto invalid = check("bad");
    invalid.request.settings.intervalSeconds = 5;
    CHECK(scheduler.upsert(invalid).error().code == "invalid_interval");
    CHECK(scheduler.upsert(check("bad", "ftp://127.0.0.1/")).error().code == "probe_unsupported_scheme");
    CHECK(scheduler.size() == 0);

    REQUIRE(scheduler.upsert(check("a", "http://127.0.0.1:9/", 30, 2)).ok());
    CHECK(scheduler.upsert(check("a", "http://127.0.0.1:9/", 30, 1)).error().code == "stale_check_version");
    CHECK(scheduler.size() == 1);

    clock.advance_ms(kInterval);
    REQUIRE(reports.wait_for(1));
    CHECK(reports.all()[0].version == 2);

    // Added later: first run on its own grid after the moment it was added.
    REQUIRE(scheduler.upsert(check("b")).ok());
    const std::int64_t added = clock.now_ms();
    const std::int64_t due_b = first_due_ms(added, kInterval, check_phase_ms("b", kInterval));
    // Updated to a 60 s interval before its first run: moved to the 60 s grid.
    REQUIRE(scheduler.upsert(check("b", "http://127.0.0.1:9/", 60, 2)).ok());
    const std::int64_t due_b60 = first_due_ms(added, 60'000, check_phase_ms("b", 60'000));
    CHECK(scheduler.remove("a"));
    CHECK_FALSE(scheduler.remove("a"));
    const std::size_t before = reports.size();
    clock.advance_ms(2 * 60'000);
    REQUIRE(reports.wait_for(before + 1));
    settle();
    const auto all = reports.all();
    for (std::size_t i = before; i < all.size(); ++i) {
      CHECK(all[i].checkId == "b");  // nothing more from the removed check
      CHECK(all[i].version == 2);
      CHECK((all[i].dueAtMs - due_b60) % 60'000 == 0);
    }
    CHECK(all[before].dueAtMs == due_b60);
    (void)due_b;
  }

  TEST_CASE("scheduler: stop cancels an in-flight probe quickly and reports nothing after") {
    probe_test::SilentServer server;
    core::ManualClock clock(kT0);
    Reports reports;
    std::atomic<int> started{0};
    SchedulerOptions options = fast_options(2);
    options.probe_function = [&](const native::probe::ProbeRequest& req,
                                 const native::probe::ProbeOptions& o) {
      ++started;
      return native::probe::http_probe(req, o);
    };
    auto scheduler =
        std::make_unique<ProbeScheduler>(clock, options, [&](const ProbeReport& r) { reports.add(r); });
    auto c = check("silent", "http://127.0.0.1:" + std::to_string(server.port()) + "/");
    c.request.settings.timeoutMs = 25'000;
    REQUIRE(scheduler->upsert(c).ok());
    clock.advance_ms(kInterval);
    for (int i = 0; i < 200 && started == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(started == 1);
    settle();
    const auto start = std::chrono::steady_clock::now();
    scheduler->stop();
    const auto wall = std::chrono::steady_clock::now() - start;
    CHECK(wall < std::chrono::milliseconds(3000));  // far below the 25 s timeout
    CHECK(reports.size() == 0);
    scheduler.reset();  // stop again from the destructor: idempotent
  }
}
