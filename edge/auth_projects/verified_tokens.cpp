#include "edge/auth_projects/verified_tokens.h"

#include "core/crypto.h"

namespace edge::auth_projects {
namespace {

std::string key_of(std::string_view token) {
  auto digest = core::sha256(token);
  return std::string(reinterpret_cast<const char*>(digest.data()), digest.size());
}

}  // namespace

std::optional<VerifiedTokens::Entry> VerifiedTokens::find(std::string_view project_id,
                                                          std::string_view issuer, std::string_view token,
                                                          std::int64_t now_s) {
  const std::string key = key_of(token);
  Shard& shard = shards_[static_cast<unsigned char>(key[0]) % kShards];
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(key);
  if (it == shard.entries.end()) return std::nullopt;
  if (now_s >= it->second.expires_at_s) {
    shard.entries.erase(it);
    return std::nullopt;
  }
  if (it->second.project_id != project_id || it->second.issuer != issuer) return std::nullopt;
  return it->second;
}

void VerifiedTokens::remember(std::string_view token, Entry entry) {
  const std::string key = key_of(token);
  Shard& shard = shards_[static_cast<unsigned char>(key[0]) % kShards];
  std::lock_guard lock(shard.mutex);
  if (shard.entries.size() >= kShardCapacity) shard.entries.clear();
  shard.entries[key] = std::move(entry);
}

}  // namespace edge::auth_projects
