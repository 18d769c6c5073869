#include "edge/vault/vault_runtime.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/vault/vault_webhooks.h"

namespace edge::vault {

namespace {
// Retries wait on the clock; the worker looks at the outbox at least this often.
constexpr std::chrono::milliseconds kPollInterval{250};
}  // namespace

VaultRuntime::VaultRuntime(App& app) : app_(app) {}

VaultRuntime::~VaultRuntime() {
  stop();
}

std::string VaultRuntime::topic(std::string_view project_id, std::string_view env) {
  return "env-vault/" + std::string(project_id) + "/" + std::string(env);
}

void VaultRuntime::changed(const std::string& project_id, const std::string& env,
                           const core::json::object& change) {
  const std::string t = topic(project_id, env);
  const std::int64_t version = record::num(change, "version");
  {
    std::lock_guard lock(mutex_);
    auto& v = announced_[t];
    if (version > v) v = version;
    worker_woken_ = true;
  }
  changed_cv_.notify_all();
  worker_cv_.notify_all();
  app_.events.publish(t, core::to_json(change), "change");
}

void VaultRuntime::wait_for_change(const std::string& project_id, const std::string& env, std::int64_t since,
                                   std::chrono::milliseconds max_wait) {
  const std::string t = topic(project_id, env);
  std::unique_lock lock(mutex_);
  changed_cv_.wait_for(lock, max_wait, [&] {
    if (stopping_) return true;
    auto it = announced_.find(t);
    return it != announced_.end() && it->second > since;
  });
}

void VaultRuntime::start(bool workers) {
  std::lock_guard lock(mutex_);
  if (!workers || worker_.joinable() || stopping_) return;
  worker_ = std::thread([this] { worker_loop(); });
}

void VaultRuntime::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_cv_.notify_all();
  worker_cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::size_t VaultRuntime::deliver_due() {
  std::lock_guard lock(deliver_mutex_);
  return deliver_due_webhooks(app_);
}

void VaultRuntime::worker_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    worker_cv_.wait_for(lock, kPollInterval, [&] { return stopping_ || worker_woken_; });
    if (stopping_) break;
    worker_woken_ = false;
    lock.unlock();
    deliver_due();
    lock.lock();
  }
}

}  // namespace edge::vault
