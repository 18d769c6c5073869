#include "edge/oauth/oauth_store.h"

#include <algorithm>

#include "edge/oauth/oauth_records.h"

namespace edge::oauth {
using namespace records;

OAuthStore::OAuthStore(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random)
    : ClientStore(kv, table, clock, random),
      GrantStore(kv, table, clock, random),
      LoginRequests(kv, table, clock, random),
      kv_(kv),
      table_(table),
      clock_(clock) {}

core::Status OAuthStore::delete_client(const std::string& company_id, std::string_view client_id) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    CORE_TRY(erase_client_in(tx, company_id, client_id));
    forget_client_in(tx, client_id);
    return {};
  });
}

core::Result<std::size_t> OAuthStore::sweep(std::size_t max_items) {
  std::int64_t cutoff = clock_.now_ms() - kSweepGraceMs;
  std::size_t removed = 0;
  while (removed < max_items) {
    std::size_t batch = 0;
    std::size_t limit = std::min(kSweepBatch, max_items - removed);
    CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
      batch = 0;  // the function may run more than once
      std::vector<std::string> keys;
      tx.scan(table_, kExpiryPrefix, [&](std::string_view key, std::string_view) {
        auto entry = parse_expiry_key(key);
        if (entry && entry->expires_at_ms >= cutoff) return false;  // sorted: the rest is later
        keys.emplace_back(key);
        return keys.size() < limit;
      });
      for (auto& key : keys) {
        if (auto entry = parse_expiry_key(key)) {
          if (entry->kind == "login")
            erase_login_request_in(tx, entry->hash);
          else
            erase_expired_in(tx, entry->kind, entry->hash);
        }
        tx.erase(table_, key);
      }
      batch = keys.size();
      return {};
    }));
    removed += batch;
    if (batch < limit) break;
  }
  return removed;
}

}  // namespace edge::oauth
