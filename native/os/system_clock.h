#pragma once

#include <chrono>

#include "core/clock.h"

namespace native {

// The machine's wall clock.
class SystemClock final : public core::Clock {
 public:
  std::int64_t now_ms() override {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  }
};

}  // namespace native
