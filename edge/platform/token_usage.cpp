#include "edge/platform/token_usage.h"

namespace edge {

void TokenUsage::note(const AccessToken& token, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = last_noted_.try_emplace(token.id, now_ms);
  if (!inserted) {
    if (now_ms - it->second < kResolutionMs) return;
    it->second = now_ms;
  } else if (token.last_used_at && now_ms - *token.last_used_at < kResolutionMs) {
    return;  // the stored value is recent enough
  }
  pending_.emplace_back(token, now_ms);
}

core::Status TokenUsage::flush(Accounts& accounts) {
  std::vector<std::pair<AccessToken, std::int64_t>> batch;
  {
    std::lock_guard lock(mutex_);
    batch.swap(pending_);
  }
  return accounts.record_token_use(batch);
}

}  // namespace edge
