#pragma once
// The OAuth provider's storage in the `oauth` table: clients (client_store.h), what users grant them
// (grant_store.h: consents, codes, tokens) and prompt=login round trips (login_requests.h), with what spans
// them: deleting a client with its grants, and the sweep of expired records. Layout: oauth_records.h.

#include <cstddef>

#include "edge/oauth/client_store.h"
#include "edge/oauth/grant_store.h"
#include "edge/oauth/login_requests.h"

namespace edge::oauth {

class OAuthStore : public ClientStore, public GrantStore, public LoginRequests {
 public:
  OAuthStore(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random);

  // Deleting a client revokes every token it holds and its consents, in one transaction.
  core::Status delete_client(const std::string& company_id, std::string_view client_id);

  // Deletes codes, tokens and login requests that expired more than kSweepGraceMs ago, with their index
  // entries, reading only the expiry index (oldest first) up to the cutoff: live records are never parsed.
  // Works in batches of kSweepBatch, each its own write transaction, so the writer is held only briefly
  // and other writes interleave; stops after `max_items`. Returns how many records went. Until the grace
  // passes, a replayed expired code or rotated refresh token is still recognised (and still revokes what
  // descends from it).
  static constexpr std::int64_t kSweepGraceMs = 24LL * 3600 * 1000;
  static constexpr std::size_t kSweepBatch = 100;
  core::Result<std::size_t> sweep(std::size_t max_items = 1000);

 private:
  store::KvStore& kv_;
  store::Table table_;
  core::Clock& clock_;
};

}  // namespace edge::oauth
