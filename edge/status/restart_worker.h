#pragma once
// The restart worker (docs/status-restart.md, "Firing"): executes the firings that probe verdicts decided,
// on threads of its own, so an SSH command that takes its whole timeout never holds up the thread that
// records probe results. The verdict hook records each firing `pending` in the result's transaction and
// submits it after the commit; a worker thread takes it, fires and records the outcome
// (edge/status/restart_history.h).
//
// Bounded: `threads` firings at once, `queue` waiting; a firing submitted to a full queue is recorded as
// failed (`not fired: too many firings waiting`). Stopping lets the firings in flight finish (each ends
// by its target's timeout) and leaves the queued ones pending in the store, where the next start marks
// them interrupted.
//
// Manual test fires run on the request's thread (the dashboard waits for their answer), at most
// `manual` at once.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "core/result.h"
#include "edge/status/restart_history.h"

namespace edge {
struct App;
}

namespace edge::status {

struct RestartWorkerOptions {
  std::size_t threads = 2;  // 0: firings stay pending until the next start marks them interrupted
  std::size_t queue = 1000;
  std::size_t manual = 4;
};

class RestartWorker {
 public:
  RestartWorker(App& app, RestartWorkerOptions options);
  ~RestartWorker();  // stop()
  RestartWorker(const RestartWorker&) = delete;
  RestartWorker& operator=(const RestartWorker&) = delete;

  // Marks the firings an earlier process left unfinished as interrupted (interrupt_unfinished_firings).
  // Call once, before anything can record a firing (open_app does).
  core::Status recover();
  void start();
  // Idempotent. Waits for the firings in flight; queued ones stay pending in the store.
  void stop();

  // Hands over a firing recorded pending and committed. Never blocks on a firing.
  void submit(RestartJob job);
  // Waits until nothing is queued or in flight (tests). Returns at once when the worker is not running.
  void drain();

  // A slot for a manual test fire; false when `manual` are already running. Release with end_manual().
  bool begin_manual();
  void end_manual();

 private:
  void loop();

  App& app_;
  RestartWorkerOptions options_;
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<RestartJob> queue_;
  std::size_t active_ = 0, manual_ = 0;
  bool started_ = false, stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace edge::status
