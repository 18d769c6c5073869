#pragma once
// Providers' signing keys kept between logins, one JWK Set per jwks_uri, refetched when they age and when a
// token names a key the set lacks (the provider rotated its key), at most once per interval. Decisions:
// docs/oidc-client.md, "JWKS caching".

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/jwk.h"
#include "core/result.h"
#include "native/oidc/http_fetch.h"

namespace native::oidc {

class JwksCache {
 public:
  // Fetches and parses one JWK Set (fetch_jwks in production; a stand-in in tests).
  using Fetch = std::function<core::Result<std::vector<core::RsaPublicKey>>(const std::string& jwks_uri)>;

  struct Settings {
    // A stored set is used for this long after it was fetched, then fetched again. Keeps a key the
    // provider withdrew (compromised) from being trusted for long.
    std::int64_t max_age_ms = 10 * 60 * 1000;
    // A token with an unknown kid triggers a refetch only when the last fetch attempt for that URI is at
    // least this old, so tokens with made-up kids cannot make the client hammer the provider.
    std::int64_t min_refetch_interval_ms = 60 * 1000;
  };

  // The keys of one URI as fetched at one time. `generation` grows by one with each set stored for the
  // URI; two snapshots with the same generation hold the same keys.
  struct Snapshot {
    std::vector<core::RsaPublicKey> keys;
    std::uint64_t generation = 0;
  };

  // `clock` must outlive the cache.
  JwksCache(core::Clock& clock, Fetch fetch, Settings settings);
  // Fetches with fetch_jwks(uri, options) and the default settings.
  explicit JwksCache(core::Clock& clock, FetchOptions options = {});

  // The stored keys of `jwks_uri` while younger than max_age_ms, else freshly fetched ones. Concurrent
  // callers wait for one fetch instead of each fetching; callers that waited for a fetch that failed get
  // its error. A set that cannot be refetched once it is too old is not used (fail closed). Errors: those
  // of the fetch (fetch_jwks: `oidc_unreachable`, `oidc_bad_response`, `oidc_bad_jwks`, ...).
  core::Result<Snapshot> keys(const std::string& jwks_uri);

  // After `seen` (from keys()) lacked the key a token names: the newer set when another caller already
  // stored one since `seen`; else a fresh fetch when the last attempt is at least min_refetch_interval_ms
  // old; else `seen`'s keys again (the same generation: nothing new to try). Errors: those of the fetch.
  core::Result<Snapshot> refetch_after_unknown_kid(const std::string& jwks_uri, const Snapshot& seen);

  ~JwksCache();
  JwksCache(const JwksCache&) = delete;
  JwksCache& operator=(const JwksCache&) = delete;

 private:
  struct Entry;
  std::shared_ptr<Entry> entry(const std::string& jwks_uri);
  core::Result<Snapshot> fetch_into(Entry& entry, const std::string& jwks_uri);

  core::Clock& clock_;
  Fetch fetch_;
  Settings settings_;
  std::mutex entries_mutex_;
  std::map<std::string, std::shared_ptr<Entry>, std::less<>> entries_;
};

}  // namespace native::oidc
