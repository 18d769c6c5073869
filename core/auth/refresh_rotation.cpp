#include "core/auth/refresh_rotation.h"

namespace core::auth {

RefreshOutcome decide_refresh(const RefreshTokenState* token, std::int64_t now_ms,
                              std::int64_t reuse_interval_ms) {
  if (token == nullptr || !token->session_live) return RefreshOutcome::refused;
  if (!token->rotated)
    return now_ms < token->expires_at_ms ? RefreshOutcome::rotate : RefreshOutcome::refused;
  // A rotated token is a replay even after it expired: its family may still be live and must end.
  const bool within = reuse_interval_ms > 0 && now_ms >= token->rotated_at_ms &&
                      now_ms - token->rotated_at_ms < reuse_interval_ms;
  if (within && !token->successor_used) return RefreshOutcome::reuse_successor;
  return RefreshOutcome::replay;
}

}  // namespace core::auth
