#pragma once
// The life of one send after it is accepted (docs/mail-send.md, "States"): each recipient moves from
// `queued` to `delivered`, `bounced` or `suppressed`, through `deferred` while its server answers 4xx; the
// mail log's status follows from its recipients'. Retries follow a schedule of delays.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace core::mail {

enum class RecipientStatus { queued, deferred, delivered, bounced, suppressed };

const char* to_string(RecipientStatus status);
std::optional<RecipientStatus> parse_recipient_status(std::string_view text);

// The mail log's status: `queued` or `deferred` while a recipient still waits (deferred when one was
// deferred); once none waits, `bounced` when any bounced, `delivered` when any was delivered, else
// `suppressed` (every recipient was on the suppression list).
RecipientStatus log_status(std::span<const RecipientStatus> recipients);

// The delays before the 2nd, 3rd, ... attempt after a 4xx answer. The default spans about a day
// (Postfix keeps trying for 5 days; document 2's clients expect a verdict within one).
struct RetrySchedule {
  std::vector<std::int64_t> delays_ms{60'000,    300'000,    900'000,    1'800'000, 3'600'000,
                                      7'200'000, 14'400'000, 28'800'000, 28'800'000};
};

// The delay before the next attempt once `attempts_made` attempts were deferred, or nullopt when the
// schedule is spent (the recipient then bounces: "gave up").
std::optional<std::int64_t> next_retry_delay(const RetrySchedule& schedule, int attempts_made);

}  // namespace core::mail
