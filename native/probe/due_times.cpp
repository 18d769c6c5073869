#include "native/probe/due_times.h"

namespace native::probe {
namespace {

// Floor modulo: the result is in [0, m) for negative a too (times before the epoch in tests).
std::int64_t floor_mod(std::int64_t a, std::int64_t m) {
  const std::int64_t r = a % m;
  return r < 0 ? r + m : r;
}

}  // namespace

std::int64_t check_phase_ms(std::string_view check_id, std::int64_t interval_ms) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : check_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return static_cast<std::int64_t>(hash % static_cast<std::uint64_t>(interval_ms));
}

std::int64_t first_due_ms(std::int64_t now_ms, std::int64_t interval_ms, std::int64_t phase_ms) {
  return now_ms + floor_mod(phase_ms - now_ms, interval_ms);
}

NextDue next_due_ms(std::int64_t previous_due_ms, std::int64_t interval_ms, std::int64_t now_ms) {
  const std::int64_t behind = now_ms - previous_due_ms;
  const std::int64_t steps = behind >= 2 * interval_ms ? behind / interval_ms : 1;
  return NextDue{previous_due_ms + steps * interval_ms, steps - 1};
}

}  // namespace native::probe
