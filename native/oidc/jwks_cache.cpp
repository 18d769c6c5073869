#include "native/oidc/jwks_cache.h"

#include <optional>

#include "native/oidc/provider_metadata.h"

namespace native::oidc {

// One URI's keys. `fetching` is held for a whole fetch, so a URI has at most one fetch at a time; `state`
// guards the members below it and is never held during a fetch, so readers of a fresh set never wait on
// the network.
struct JwksCache::Entry {
  std::mutex fetching;
  std::mutex state;
  std::vector<core::RsaPublicKey> keys;
  std::uint64_t generation = 0;  // 0: no set stored yet
  std::int64_t fetched_at_ms = 0;
  std::int64_t attempted_at_ms = 0;
  std::uint64_t attempts = 0;
  std::optional<core::Error> last_error;  // of the last attempt, when it failed

  Snapshot snapshot() const { return Snapshot{keys, generation}; }
};

JwksCache::JwksCache(core::Clock& clock, Fetch fetch, Settings settings)
    : clock_(clock), fetch_(std::move(fetch)), settings_(settings) {}

JwksCache::JwksCache(core::Clock& clock, FetchOptions options)
    : JwksCache(
          clock, [options](const std::string& uri) { return fetch_jwks(uri, options); }, Settings{}) {}

JwksCache::~JwksCache() = default;

std::shared_ptr<JwksCache::Entry> JwksCache::entry(const std::string& jwks_uri) {
  std::lock_guard lock(entries_mutex_);
  auto& slot = entries_[jwks_uri];
  if (!slot) slot = std::make_shared<Entry>();
  return slot;
}

core::Result<JwksCache::Snapshot> JwksCache::fetch_into(Entry& e, const std::string& jwks_uri) {
  const std::int64_t now = clock_.now_ms();
  auto fetched = fetch_(jwks_uri);
  std::lock_guard lock(e.state);
  ++e.attempts;
  e.attempted_at_ms = now;
  if (!fetched) {
    e.last_error = fetched.error();
    return fetched.error();
  }
  e.last_error.reset();
  e.keys = std::move(*fetched);
  ++e.generation;
  e.fetched_at_ms = now;
  return e.snapshot();
}

core::Result<JwksCache::Snapshot> JwksCache::keys(const std::string& jwks_uri) {
  auto e = entry(jwks_uri);
  auto fresh = [&] { return e->generation > 0 && clock_.now_ms() - e->fetched_at_ms < settings_.max_age_ms; };
  std::uint64_t attempts_seen = 0;
  {
    std::lock_guard lock(e->state);
    if (fresh()) return e->snapshot();
    attempts_seen = e->attempts;
  }
  std::lock_guard fetching(e->fetching);
  {
    std::lock_guard lock(e->state);
    // Another caller fetched while this one waited: use its outcome rather than fetch again at once.
    if (fresh()) return e->snapshot();
    if (e->attempts != attempts_seen && e->last_error) return *e->last_error;
  }
  return fetch_into(*e, jwks_uri);
}

core::Result<JwksCache::Snapshot> JwksCache::refetch_after_unknown_kid(const std::string& jwks_uri,
                                                                       const Snapshot& seen) {
  auto e = entry(jwks_uri);
  std::lock_guard fetching(e->fetching);
  {
    std::lock_guard lock(e->state);
    if (e->generation != seen.generation) return e->snapshot();
    if (e->attempts > 0 && clock_.now_ms() - e->attempted_at_ms < settings_.min_refetch_interval_ms)
      return e->snapshot();
  }
  return fetch_into(*e, jwks_uri);
}

}  // namespace native::oidc
