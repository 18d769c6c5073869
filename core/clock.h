#pragma once
// Time enters the core and the products only through this interface, so tests move time by hand instead
// of sleeping.

#include <atomic>
#include <cstdint>

namespace core {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch, UTC. Not guaranteed to be monotonic.
  virtual std::int64_t now_ms() = 0;
};

// A clock that stands still until told to move; for tests and simulations. Safe to read from many
// threads while one moves it.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::int64_t start_ms) : now_(start_ms) {}
  std::int64_t now_ms() override { return now_.load(); }
  void advance_ms(std::int64_t ms) { now_ += ms; }
  void set_ms(std::int64_t ms) { now_ = ms; }

 private:
  std::atomic<std::int64_t> now_;
};

}  // namespace core
