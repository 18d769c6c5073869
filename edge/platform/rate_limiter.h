#pragma once
// Token-bucket rate limiting per key (an access token id, an IP address, an email). In memory, per
// process: a restart forgets the buckets, which errs on the side of letting clients through.

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "edge/config.h"

namespace edge {

class RateLimiter {
 public:
  // Each key may spend `limit.requests` at once and regains them evenly over `limit.window_ms`.
  explicit RateLimiter(RateLimit limit) : limit_(limit) {}

  struct Decision {
    bool allowed = true;
    std::int64_t retry_after_seconds = 0;  // when refused: whole seconds until one request is allowed
  };
  // Spends one request of `key` at time `now_ms`. Thread-safe.
  Decision take(std::string_view key, std::int64_t now_ms);
  // Gives back one request taken from `key` (for an attempt that turned out not to count). Thread-safe.
  void refund(std::string_view key);
  // Forgets `key`: it may spend a full bucket again. Thread-safe.
  void forget(std::string_view key);

  // Keys held, and how many times a shard was scanned for full buckets: for tests and metrics.
  std::size_t size();
  std::size_t sweeps();

  // A shard is scanned once it holds this many keys, and again only when it has doubled since the last
  // scan: each scan's cost is paid by as many insertions, so take() stays amortized O(1) however many keys
  // are live, and memory stays within twice the recently busy keys.
  static constexpr std::size_t kSweepFloor = 1024;

  // What take would decide, without spending: for limits that count only some requests (the OAuth token
  // endpoint counts a public client's failures), check first and take once the outcome is known.
  Decision check(std::string_view key, std::int64_t now_ms);

 private:
  struct Bucket {
    double tokens = 0;
    std::int64_t updated_ms = 0;
  };
  static constexpr std::size_t kShards = 16;
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Bucket> buckets;
    std::size_t sweep_at = kSweepFloor;
    std::size_t sweeps = 0;
  };
  Shard& shard_of(std::string_view key);
  // `b`'s tokens at `now_ms`, refilled at the limit's rate up to its capacity.
  double refilled(const Bucket& b, std::int64_t now_ms) const;
  // The refusal for a bucket holding `tokens` (< 1): Retry-After in whole seconds, at least 1.
  Decision refusal(double tokens) const;

  RateLimit limit_;
  Shard shards_[kShards];
};

}  // namespace edge
