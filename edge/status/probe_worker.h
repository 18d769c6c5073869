#pragma once
// The probe worker of the status service (docs/status-probes.md, "In the edge"): keeps a
// native::probe::ProbeScheduler in step with the stored checks and records every probe's verdict durably
// through append_check_result, which updates the check's summary (status, lastLatencyMs, lastCheckedAt) in
// the same transaction.
//
// Reconciling rather than hooking every write: the worker reads the `check/` index on start and then every
// `resync_ms` (and at once after sync_soon()), adds what is new, updates what changed and removes what is
// gone, so cascaded deletes (a page, a component) and restarts need no special path. A check's settings
// reach the scheduler with a version the worker counts up whenever they change.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "native/probe/probe_scheduler.h"

namespace edge {
struct App;
}

namespace edge::status {

struct ProbeWorkerOptions {
  std::size_t workers = 16;  // probes in flight at most
  std::int64_t resync_ms = 5000;
  native::probe::ProbeOptions probe;  // CA file for deployments with a private CA, body bound
};

class ProbeWorker {
 public:
  ProbeWorker(App& app, ProbeWorkerOptions options);
  ~ProbeWorker();  // stop()
  ProbeWorker(const ProbeWorker&) = delete;
  ProbeWorker& operator=(const ProbeWorker&) = delete;

  void start();
  // Idempotent; after it returns nothing is probed or recorded.
  void stop();
  // Asks for a reconcile now (after a dashboard write), without waiting for it.
  void sync_soon();
  // Reconciles on the caller's thread (tests, start). Errors: the store's.
  core::Status sync();
  // Checks the scheduler holds.
  std::size_t scheduled() const;

 private:
  struct Known {
    std::string settings;  // the stored check's probe-relevant members, serialized, to notice changes
    std::int64_t version = 0;
  };
  void loop();
  void record(const native::probe::ProbeReport& report);

  App& app_;
  ProbeWorkerOptions options_;
  std::unique_ptr<native::probe::ProbeScheduler> scheduler_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Known, std::less<>> known_;
  bool stopping_ = false, poke_ = false, started_ = false;
  std::mutex sync_mutex_;  // one reconcile at a time
  std::thread thread_;
};

}  // namespace edge::status
