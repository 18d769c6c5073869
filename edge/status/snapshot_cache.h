#pragma once
// The public snapshot's cache (spec Limits: "Snapshot cache 30 seconds"): the rendered body per page slug
// and locale, reused until 30 s after it was built. A dashboard write to a page, and a probe result that
// changes a check's status, drop its entries at once (edge/status/page_events.h) so visitors see the
// change; results that change nothing do not, so a steady page costs at most one build per 30 s per locale
// however many visitors it has.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace edge::status {

inline constexpr std::int64_t kSnapshotCacheMs = 30'000;

class SnapshotCache {
 public:
  // The body cached for (slug, lang) while now_ms < its build time + 30 s.
  std::optional<std::string> get(std::string_view slug, std::string_view lang, std::int64_t now_ms);
  void put(std::string_view slug, std::string_view lang, std::string body, std::int64_t now_ms);
  // Drops every entry of `slug` (all locales and documents).
  void invalidate(std::string_view slug);

 private:
  struct Entry {
    std::string body;
    std::int64_t expires_ms = 0;
  };
  std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;  // "<slug>\n<lang>"
};

}  // namespace edge::status
