#pragma once
// Access tokens already verified, so that userinfo and every call made with an end user's token pay the RS256
// signature check (about 0.1 ms natively, the largest cost of the request) once per token rather than once
// per request. A signature check is a pure function of the token and the project's published keys, and a key
// leaves jwks.json only after every token it signed has expired, so a verified token stays verified until its
// `exp`. What is not cached: the session's liveness and the user's state, read from the store every time.
//
// Keyed by the SHA-256 of the token (never the token itself) and the project; bounded: each of the shards
// holds kShardCapacity entries and is emptied when full (a miss only costs a verification).

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/auth/access_token.h"

namespace edge::auth_projects {

class VerifiedTokens {
 public:
  static constexpr std::size_t kShards = 16, kShardCapacity = 4096;

  struct Entry {
    std::string project_id, issuer, user_id, session_id;
    std::int64_t expires_at_s = 0;
  };

  // The verified facts of `token` for `project_id` under `issuer` (a renamed project has another) while
  // `now_s` is before its expiry.
  std::optional<Entry> find(std::string_view project_id, std::string_view issuer, std::string_view token,
                            std::int64_t now_s);
  void remember(std::string_view token, Entry entry);

 private:
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
  };
  std::array<Shard, kShards> shards_;
};

}  // namespace edge::auth_projects
