#pragma once
// Upload reservations against the company quota (docs/storage-api.md, "Quota"): an upload reserves its
// declared size when its request head arrives, so that uploads running at once cannot together pass the
// quota (the anchors check only after the fact and overshoot). The committed `used` counter lives in the
// store; this in-memory ledger holds only what uploads in flight have reserved. A reservation is released
// when its upload commits (after `used` took its bytes) or fails; a crash loses only reservations, never
// committed bytes.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/result.h"

namespace edge::storage {

class QuotaLedger;

// Bytes reserved for one upload; released when it goes (or by release()).
class QuotaReservation {
 public:
  QuotaReservation() = default;
  QuotaReservation(QuotaLedger* ledger, std::string company_id, std::uint64_t bytes)
      : ledger_(ledger), company_id_(std::move(company_id)), bytes_(bytes) {}
  QuotaReservation(QuotaReservation&& o) noexcept { *this = std::move(o); }
  QuotaReservation& operator=(QuotaReservation&& o) noexcept;
  QuotaReservation(const QuotaReservation&) = delete;
  QuotaReservation& operator=(const QuotaReservation&) = delete;
  ~QuotaReservation() { release(); }

  void release();
  bool held() const { return ledger_ != nullptr; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  QuotaLedger* ledger_ = nullptr;
  std::string company_id_;
  std::uint64_t bytes_ = 0;
};

struct QuotaState {
  std::uint64_t used = 0, limit = 0;
};

class QuotaLedger {
 public:
  // Reserves `bytes` for the company when its committed `used` (read by `committed`, under the ledger's
  // lock so no other reservation slips in between), plus what is reserved already, plus `bytes` stays
  // within its limit. On refusal answers the state that refused it in `seen`.
  // Errors: `payload_too_large` naming the quota; `committed`'s own errors.
  core::Result<QuotaReservation> reserve(const std::string& company_id, std::uint64_t bytes,
                                         const std::function<core::Result<QuotaState>()>& committed);

  std::uint64_t reserved(const std::string& company_id) const;

 private:
  friend class QuotaReservation;
  void release(const std::string& company_id, std::uint64_t bytes);

  mutable std::mutex mu_;
  std::map<std::string, std::uint64_t, std::less<>> reserved_;
};

// The ledger of this process. One edge process serves one data directory, and company ids are random and
// never reused, so one ledger keyed by company id serves every App of the process (tests run several).
QuotaLedger& upload_reservations();

// The 413 message for an upload of `bytes` that does not fit (DECISIONS.md: an error naming the quota).
std::string quota_exceeded_message(std::uint64_t bytes, std::uint64_t used, std::uint64_t reserved,
                                   std::uint64_t limit);

}  // namespace edge::storage
