#include "edge/status/delivery_schedule.h"

#include <algorithm>

namespace edge::status {

std::optional<std::int64_t> retry_delay_ms(const RetryPolicy& policy, int attempts, double unit) {
  if (attempts < 1 || attempts >= policy.max_attempts) return std::nullopt;
  const std::int64_t base = std::max<std::int64_t>(1, policy.base_ms);
  const std::int64_t cap = std::max(base, policy.max_ms);
  std::int64_t delay = base;
  for (int i = 1; i < attempts && delay < cap; ++i) delay = std::min(cap, delay * 2);
  unit = std::clamp(unit, 0.0, 1.0);
  const std::int64_t half = delay / 2;
  return delay - half + static_cast<std::int64_t>(static_cast<double>(half) * unit);
}

}  // namespace edge::status
