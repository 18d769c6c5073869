#include "native/store/reader_gate.h"

namespace store {

void ReaderGate::enter_shared(bool nested) {
  std::unique_lock lock(mutex_);
  if (!nested) changed_.wait(lock, [&] { return !exclusive_wanted_; });
  ++readers_;
}

void ReaderGate::leave_shared() {
  std::lock_guard lock(mutex_);
  if (--readers_ == 0 && exclusive_wanted_) changed_.notify_all();
}

void ReaderGate::lock_exclusive() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !exclusive_wanted_; });
  exclusive_wanted_ = true;
  changed_.wait(lock, [&] { return readers_ == 0; });
}

void ReaderGate::unlock_exclusive() {
  std::lock_guard lock(mutex_);
  exclusive_wanted_ = false;
  changed_.notify_all();
}

}  // namespace store
