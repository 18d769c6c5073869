#include "edge/platform/rate_limiter.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace edge {

RateLimiter::Shard& RateLimiter::shard_of(std::string_view key) {
  return shards_[std::hash<std::string_view>{}(key) % kShards];
}

double RateLimiter::refilled(const Bucket& b, std::int64_t now_ms) const {
  const double capacity = static_cast<double>(limit_.requests);
  if (now_ms <= b.updated_ms) return b.tokens;
  const double per_ms = capacity / static_cast<double>(limit_.window_ms);
  return std::min(capacity, b.tokens + static_cast<double>(now_ms - b.updated_ms) * per_ms);
}

RateLimiter::Decision RateLimiter::refusal(double tokens) const {
  const double per_ms = static_cast<double>(limit_.requests) / static_cast<double>(limit_.window_ms);
  const double wait_ms = (1.0 - tokens) / per_ms;
  return {false, std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(wait_ms / 1000.0)))};
}

RateLimiter::Decision RateLimiter::take(std::string_view key, std::int64_t now_ms) {
  Shard& shard = shard_of(key);
  const double capacity = static_cast<double>(limit_.requests);
  std::lock_guard lock(shard.mutex);
  // Full buckets carry no information; dropping them bounds memory by the number of recently busy keys.
  if (shard.buckets.size() >= shard.sweep_at) {
    std::erase_if(shard.buckets, [&](auto& kv) { return refilled(kv.second, now_ms) >= capacity; });
    shard.sweep_at = std::max(kSweepFloor, 2 * shard.buckets.size());
    ++shard.sweeps;
  }
  auto [it, inserted] = shard.buckets.try_emplace(std::string(key), Bucket{capacity, now_ms});
  Bucket& b = it->second;
  if (!inserted && now_ms > b.updated_ms) {
    b.tokens = refilled(b, now_ms);
    b.updated_ms = now_ms;
  }
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return {};
  }
  return refusal(b.tokens);
}

void RateLimiter::refund(std::string_view key) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  auto it = shard.buckets.find(std::string(key));
  if (it != shard.buckets.end())
    it->second.tokens = std::min(static_cast<double>(limit_.requests), it->second.tokens + 1.0);
}

void RateLimiter::forget(std::string_view key) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  if (auto it = shard.buckets.find(std::string(key)); it != shard.buckets.end()) shard.buckets.erase(it);
}

std::size_t RateLimiter::size() {
  std::size_t n = 0;
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    n += shard.buckets.size();
  }
  return n;
}

std::size_t RateLimiter::sweeps() {
  std::size_t n = 0;
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    n += shard.sweeps;
  }
  return n;
}

RateLimiter::Decision RateLimiter::check(std::string_view key, std::int64_t now_ms) {
  Shard& shard = shard_of(key);
  std::lock_guard lock(shard.mutex);
  auto it = shard.buckets.find(std::string(key));
  if (it == shard.buckets.end()) return {};
  const double tokens = refilled(it->second, now_ms);
  if (tokens >= 1.0) return {};
  return refusal(tokens);
}

}  // namespace edge
