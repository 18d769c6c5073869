#include "edge/storage/quota_ledger.h"

namespace edge::storage {

QuotaReservation& QuotaReservation::operator=(QuotaReservation&& o) noexcept {
  if (this != &o) {
    release();
    ledger_ = o.ledger_;
    company_id_ = std::move(o.company_id_);
    bytes_ = o.bytes_;
    o.ledger_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void QuotaReservation::release() {
  if (ledger_) ledger_->release(company_id_, bytes_);
  ledger_ = nullptr;
  bytes_ = 0;
}

QuotaLedger& upload_reservations() {
  static QuotaLedger ledger;
  return ledger;
}

std::string quota_exceeded_message(std::uint64_t bytes, std::uint64_t used, std::uint64_t reserved,
                                   std::uint64_t limit) {
  std::string msg = "storage quota exceeded: the upload of " + std::to_string(bytes) +
                    " bytes does not fit in the company's quota of " + std::to_string(limit) + " bytes (" +
                    std::to_string(used) + " used";
  if (reserved > 0) msg += ", " + std::to_string(reserved) + " reserved by uploads in progress";
  return msg + ")";
}

core::Result<QuotaReservation> QuotaLedger::reserve(
    const std::string& company_id, std::uint64_t bytes,
    const std::function<core::Result<QuotaState>()>& committed) {
  std::lock_guard lock(mu_);
  auto state = committed();
  if (!state) return state.error();
  std::uint64_t& held = reserved_[company_id];
  if (state->used > state->limit || bytes > state->limit - state->used ||
      held > state->limit - state->used - bytes) {
    const std::uint64_t now_held = held;
    if (held == 0) reserved_.erase(company_id);
    return core::make_error("payload_too_large",
                            quota_exceeded_message(bytes, state->used, now_held, state->limit));
  }
  held += bytes;
  return QuotaReservation(this, company_id, bytes);
}

std::uint64_t QuotaLedger::reserved(const std::string& company_id) const {
  std::lock_guard lock(mu_);
  auto it = reserved_.find(company_id);
  return it == reserved_.end() ? 0 : it->second;
}

void QuotaLedger::release(const std::string& company_id, std::uint64_t bytes) {
  std::lock_guard lock(mu_);
  auto it = reserved_.find(company_id);
  if (it == reserved_.end()) return;
  it->second = it->second > bytes ? it->second - bytes : 0;
  if (it->second == 0) reserved_.erase(it);
}

}  // namespace edge::storage
