#pragma once
// Records an access token's lastUsedAt without a durable write on every request: uses are noted in
// memory and flushed in one transaction about once a second, each token at most once a minute. The
// listing's lastUsedAt is therefore precise to about a minute (docs/accounts.md).

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "edge/accounts/accounts.h"

namespace edge {

class TokenUsage {
 public:
  static constexpr std::int64_t kResolutionMs = 60'000;

  void note(const AccessToken& token, std::int64_t now_ms);
  // Writes the pending uses; returns what the store said.
  core::Status flush(Accounts& accounts);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::int64_t> last_noted_;  // token id -> time
  std::vector<std::pair<AccessToken, std::int64_t>> pending_;
};

}  // namespace edge
