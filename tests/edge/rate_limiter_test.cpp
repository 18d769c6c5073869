// The in-memory token buckets (edge/platform/rate_limiter.h): expiry of idle keys in amortized time.

#include "edge/platform/rate_limiter.h"

#include <doctest/doctest.h>

#include <string>

using edge::RateLimiter;

TEST_CASE("rate limiter: keys whose buckets refilled are dropped as new keys arrive") {
  RateLimiter limiter(edge::RateLimit{1, 1000});
  for (int i = 0; i < 100'000; ++i) CHECK(limiter.take("old-" + std::to_string(i), 0).allowed);
  CHECK(limiter.size() == 100'000);  // all spent: each still says something
  // A window later every old bucket is full again, so it carries no information.
  for (int i = 0; i < 100'000; ++i) CHECK(limiter.take("new-" + std::to_string(i), 1000).allowed);
  CHECK(limiter.size() == 100'000);  // only the new keys
  // A dropped key starts with a full bucket, exactly as if it had been kept.
  CHECK(limiter.take("old-1", 1000).allowed);
  CHECK_FALSE(limiter.take("old-1", 1000).allowed);
}

TEST_CASE("rate limiter: live keys are scanned only when a shard has doubled since its last scan") {
  RateLimiter limiter(edge::RateLimit{1, 60'000});
  for (int i = 0; i < 200'000; ++i) limiter.take("key-" + std::to_string(i), 0);
  CHECK(limiter.size() == 200'000);
  // 16 shards of about 12,500 keys, each scanned at 1,024, 2,048, 4,096 and 8,192 keys: not on every call.
  CHECK(limiter.sweeps() == 64);
}

TEST_CASE("rate limiter: refund gives one request back, forget a whole bucket") {
  RateLimiter limiter(edge::RateLimit{2, 60'000});
  CHECK(limiter.take("k", 0).allowed);
  CHECK(limiter.take("k", 0).allowed);
  CHECK_FALSE(limiter.take("k", 0).allowed);
  limiter.refund("k");
  CHECK(limiter.take("k", 0).allowed);
  CHECK_FALSE(limiter.take("k", 0).allowed);
  limiter.forget("k");
  CHECK(limiter.take("k", 0).allowed);
  CHECK(limiter.take("k", 0).allowed);
  CHECK_FALSE(limiter.take("k", 0).allowed);
  limiter.refund("unknown");  // nothing to give back
  CHECK(limiter.size() == 1);
}
