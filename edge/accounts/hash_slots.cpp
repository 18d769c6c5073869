#include "edge/accounts/hash_slots.h"

#include <algorithm>

namespace edge {

HashSlots::HashSlots(std::size_t running, std::size_t waiting)
    : running_limit_(std::max<std::size_t>(1, running)), waiting_limit_(waiting) {}

HashSlots::Ticket& HashSlots::Ticket::operator=(Ticket&& other) noexcept {
  if (this != &other) {
    if (owner_) owner_->release();
    owner_ = other.owner_;
    other.owner_ = nullptr;
  }
  return *this;
}

HashSlots::Ticket::~Ticket() {
  if (owner_) owner_->release();
}

HashSlots::Ticket HashSlots::acquire() {
  std::unique_lock lock(mutex_);
  if (running_ < running_limit_) {
    ++running_;
    return Ticket(this);
  }
  if (waiting_ >= waiting_limit_) return Ticket();
  ++waiting_;
  freed_.wait(lock, [&] { return running_ < running_limit_; });
  --waiting_;
  ++running_;
  return Ticket(this);
}

std::size_t HashSlots::waiting() {
  std::lock_guard lock(mutex_);
  return waiting_;
}

void HashSlots::release() {
  {
    std::lock_guard lock(mutex_);
    --running_;
  }
  freed_.notify_one();
}

}  // namespace edge
