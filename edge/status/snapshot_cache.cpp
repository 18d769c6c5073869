#include "edge/status/snapshot_cache.h"

namespace edge::status {
namespace {
std::string key_of(std::string_view slug, std::string_view lang) {
  std::string key(slug);
  key += '\n';
  key += lang;
  return key;
}
}  // namespace

std::optional<std::string> SnapshotCache::get(std::string_view slug, std::string_view lang,
                                              std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key_of(slug, lang));
  if (it == entries_.end()) return std::nullopt;
  if (now_ms >= it->second.expires_ms) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.body;
}

void SnapshotCache::put(std::string_view slug, std::string_view lang, std::string body, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  // Expired entries of pages nobody asks for again would otherwise stay; a sweep on each build keeps the
  // map as large as the pages viewed in the last 30 s.
  for (auto it = entries_.begin(); it != entries_.end();)
    it = now_ms >= it->second.expires_ms ? entries_.erase(it) : std::next(it);
  entries_[key_of(slug, lang)] = Entry{std::move(body), now_ms + kSnapshotCacheMs};
}

void SnapshotCache::invalidate(std::string_view slug) {
  std::lock_guard lock(mutex_);
  std::string prefix = std::string(slug) + '\n';
  for (auto it = entries_.lower_bound(prefix); it != entries_.end() && it->first.starts_with(prefix);)
    it = entries_.erase(it);
}

}  // namespace edge::status
