#include "native/store/write_queue.h"

#include <algorithm>

namespace store {

bool WriteQueue::submit_and_wait(WriteRequest& request) {
  std::unique_lock lock(mutex_);
  if (closed_) return false;
  queue_.push_back(&request);
  if (queue_.size() == 1) writer_wakeup_.notify_one();
  request.woken.wait(lock, [&] { return request.done; });
  return true;
}

bool WriteQueue::take(std::vector<WriteRequest*>& batch, std::size_t max) {
  std::unique_lock lock(mutex_);
  writer_wakeup_.wait(lock, [&] { return closed_ || !queue_.empty(); });
  if (queue_.empty()) return false;
  const std::size_t n = std::min(std::max<std::size_t>(max, 1), queue_.size());
  batch.insert(batch.end(), queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  return true;
}

void WriteQueue::finish(std::span<WriteRequest* const> requests) {
  std::lock_guard lock(mutex_);
  // Notifying under the lock: a woken caller cannot return (and destroy its request) before we let go.
  for (WriteRequest* r : requests) {
    r->done = true;
    r->woken.notify_one();
  }
}

void WriteQueue::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  writer_wakeup_.notify_all();
}

std::size_t WriteQueue::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

}  // namespace store
