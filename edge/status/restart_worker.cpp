#include "edge/status/restart_worker.h"

#include <spdlog/spdlog.h>

#include "edge/app.h"

namespace edge::status {

RestartWorker::RestartWorker(App& app, RestartWorkerOptions options) : app_(app), options_(options) {}

RestartWorker::~RestartWorker() {
  stop();
}

core::Status RestartWorker::recover() {
  auto interrupted = interrupt_unfinished_firings(app_);
  if (!interrupted) return interrupted.error();
  if (*interrupted > 0)
    spdlog::warn("{} restart firing(s) left unfinished by the previous run are marked interrupted",
                 *interrupted);
  return {};
}

void RestartWorker::start() {
  std::lock_guard lock(mutex_);
  if (started_ || stopping_ || options_.threads == 0) return;
  started_ = true;
  for (std::size_t i = 0; i < options_.threads; ++i) threads_.emplace_back([this] { loop(); });
}

void RestartWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  std::lock_guard lock(mutex_);
  queue_.clear();  // still pending in the store: interrupted at the next start
  idle_.notify_all();
}

void RestartWorker::submit(RestartJob job) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() < options_.queue) {
      queue_.push_back(std::move(job));
      wake_.notify_one();
      return;
    }
  }
  if (auto failed = fail_firing(app_, job, "not fired: too many firings waiting"); !failed.ok())
    spdlog::warn("recording a restart firing that was not fired failed: {}", failed.error().message);
}

void RestartWorker::drain() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return !started_ || stopping_ || (queue_.empty() && active_ == 0); });
}

bool RestartWorker::begin_manual() {
  std::lock_guard lock(mutex_);
  if (manual_ >= options_.manual) return false;
  ++manual_;
  return true;
}

void RestartWorker::end_manual() {
  std::lock_guard lock(mutex_);
  --manual_;
}

void RestartWorker::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    RestartJob job = std::move(queue_.front());
    queue_.pop_front();
    ++active_;
    lock.unlock();
    auto done = execute_firing(app_, job);
    if (!done)
      spdlog::warn("restart firing {} of check {}: {}", job.firingId, job.checkId, done.error().message);
    lock.lock();
    --active_;
    if (queue_.empty() && active_ == 0) idle_.notify_all();
  }
}

}  // namespace edge::status
