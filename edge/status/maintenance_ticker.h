#pragma once
// The time-driven moves of maintenance windows (docs/status-incidents.md, "Maintenance windows"): the
// reminder one hour before the start, the start when scheduledStart passes, the completion when the end
// passes. Each is a notification written exactly once (advance_maintenance marks it sent in the same
// transaction), so a tick that comes late, twice, or after a restart sends nothing twice and loses nothing.
//
// tick(now_ms) does one pass over the windows that still owe a notification (the `mnt/` index); the thread
// started by start() calls it with the App's clock every `interval_ms` (Config::status.maintenance_tick_ms;
// 0 leaves the thread off, and tests call tick themselves with the manual clock).

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "core/result.h"

namespace edge {
struct App;
}

namespace edge::status {

class MaintenanceTicker {
 public:
  MaintenanceTicker(App& app, std::int64_t interval_ms);
  ~MaintenanceTicker();  // stop()
  MaintenanceTicker(const MaintenanceTicker&) = delete;
  MaintenanceTicker& operator=(const MaintenanceTicker&) = delete;

  void start();
  // Idempotent; after it returns no tick runs.
  void stop();
  // One pass at `now_ms`: the number of windows that wrote notifications. Errors: the store's.
  core::Result<int> tick(std::int64_t now_ms);

 private:
  void loop();

  App& app_;
  std::int64_t interval_ms_;
  std::mutex mutex_;
  std::mutex tick_mutex_;  // one pass at a time (the thread and a direct caller)
  std::condition_variable wake_;
  bool started_ = false, stopping_ = false;
  std::thread thread_;
};

}  // namespace edge::status
