#pragma once
// Milliseconds since a steady-clock start, for RestartOutcome::durationMs.

#include <chrono>
#include <cstdint>

namespace native::restart {

inline std::int64_t elapsed_ms(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace native::restart
