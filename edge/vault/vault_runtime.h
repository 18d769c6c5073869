#pragma once
// The env vault's live parts (docs/env-vault.md, "Change log" and "Webhooks"), one per App:
//   - after every committed push or rollback, changed() wakes the long polls waiting on that environment,
//     publishes the change record to the Server-Sent Events topic `env-vault/<projectId>/<env>` (EventHub)
//     and wakes the webhook worker;
//   - the webhook worker (vault_webhooks.h) runs on its own thread between start() and stop().

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "core/json.h"

namespace edge {
struct App;
}

namespace edge::vault {

class VaultRuntime {
 public:
  explicit VaultRuntime(App& app);
  ~VaultRuntime();
  VaultRuntime(const VaultRuntime&) = delete;
  VaultRuntime& operator=(const VaultRuntime&) = delete;

  static std::string topic(std::string_view project_id, std::string_view env);

  // Called after the transaction that wrote `change` (a change record) committed.
  void changed(const std::string& project_id, const std::string& env, const core::json::object& change);

  // Waits until a change with a version above `since` was announced for the environment, `max_wait`
  // passed, or stop() was called. The caller reads the store after it returns (a change committed before
  // the wait began is already in the store, so nothing falls between the read and the wait).
  void wait_for_change(const std::string& project_id, const std::string& env, std::int64_t since,
                       std::chrono::milliseconds max_wait);

  // The webhook worker's thread: delivers due outbox jobs (deliver_due) when woken by a change, and every
  // poll interval for retries. No thread when `workers` is false (tests call deliver_due themselves).
  void start(bool workers);
  // Wakes every long poll and joins the worker (an attempt in progress finishes first). Idempotent.
  void stop();
  // Makes one attempt of every outbox job due by the clock, on the calling thread; answers how many.
  std::size_t deliver_due();

 private:
  void worker_loop();

  App& app_;
  std::mutex mutex_;
  std::condition_variable changed_cv_, worker_cv_;
  std::map<std::string, std::int64_t, std::less<>> announced_;  // topic -> highest version announced
  bool stopping_ = false, worker_woken_ = false;
  std::mutex deliver_mutex_;  // one deliver_due at a time
  std::thread worker_;
};

}  // namespace edge::vault
