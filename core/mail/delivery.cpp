#include "core/mail/delivery.h"

namespace core::mail {

const char* to_string(RecipientStatus status) {
  switch (status) {
    case RecipientStatus::deferred:
      return "deferred";
    case RecipientStatus::delivered:
      return "delivered";
    case RecipientStatus::bounced:
      return "bounced";
    case RecipientStatus::suppressed:
      return "suppressed";
    case RecipientStatus::queued:
      break;
  }
  return "queued";
}

std::optional<RecipientStatus> parse_recipient_status(std::string_view text) {
  for (auto s : {RecipientStatus::queued, RecipientStatus::deferred, RecipientStatus::delivered,
                 RecipientStatus::bounced, RecipientStatus::suppressed})
    if (text == to_string(s)) return s;
  return std::nullopt;
}

RecipientStatus log_status(std::span<const RecipientStatus> recipients) {
  bool waiting = false, deferred = false, bounced = false, delivered = false;
  for (auto s : recipients) {
    waiting |= s == RecipientStatus::queued || s == RecipientStatus::deferred;
    deferred |= s == RecipientStatus::deferred;
    bounced |= s == RecipientStatus::bounced;
    delivered |= s == RecipientStatus::delivered;
  }
  if (waiting) return deferred ? RecipientStatus::deferred : RecipientStatus::queued;
  if (bounced) return RecipientStatus::bounced;
  if (delivered) return RecipientStatus::delivered;
  return RecipientStatus::suppressed;
}

std::optional<std::int64_t> next_retry_delay(const RetrySchedule& schedule, int attempts_made) {
  if (attempts_made < 1 || static_cast<std::size_t>(attempts_made) > schedule.delays_ms.size())
    return std::nullopt;
  return schedule.delays_ms[static_cast<std::size_t>(attempts_made) - 1];
}

}  // namespace core::mail
