#pragma once
// When a failed delivery to a subscriber is tried again (docs/status-subscribers.md, "Retries"):
// exponential backoff from `base_ms`, doubling per failed attempt up to `max_ms`, with "equal jitter" (half
// the delay fixed, the other half random) so that subscribers failing together do not retry in lockstep.
// After `max_attempts` attempts the delivery fails for good.

#include <cstdint>
#include <optional>

namespace edge::status {

struct RetryPolicy {
  std::int64_t base_ms = 30'000, max_ms = 3'600'000;
  int max_attempts = 12;
};

// The wait before the next attempt after `attempts` attempts (1 after the first), with `unit` in [0, 1)
// the random share of the jitter; nullopt when no attempt is left.
std::optional<std::int64_t> retry_delay_ms(const RetryPolicy& policy, int attempts, double unit);

}  // namespace edge::status
