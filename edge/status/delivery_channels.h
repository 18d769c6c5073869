#pragma once
// One attempt on each subscriber channel (docs/status-subscribers.md, "Channels"): a signed webhook POST,
// a mail over SMTP to the configured relay, a Telegram message through the Bot API. Each answers what the
// subscriber worker records: delivered, worth another try, or failed for good. No store access here.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace edge {
struct App;
}

namespace edge::status {

struct ChannelOutcome {
  enum class Kind { delivered, retry, failed } kind = Kind::retry;
  int status = 0;     // HTTP status or SMTP reply code; 0 without an answer
  std::string error;  // empty when delivered; printable ASCII, bounded
  bool delivered() const { return kind == Kind::delivered; }
};

// POST `body` (the exact signed bytes) with Content-Type application/json, `X-Service-Event: <event>`,
// `X-Service-Signature: sha256=<hex>` keyed with `management_token`, and `X-Service-Delivery: <id>` (the
// same on every attempt, for receivers that deduplicate). 2xx delivered; anything else, no answer or a
// redirect (not followed) is retried.
ChannelOutcome post_webhook(const App& app, const std::string& url, const std::string& body,
                            std::string_view event, std::string_view management_token,
                            std::string_view delivery_id);

// Whether the deployment can send status mail (a relay is configured).
bool status_mail_configured(const App& app);

// One plain-text mail from the configured sender to `to`, with `headers` added as they are (ASCII values of
// at most a line: List-Unsubscribe and List-Unsubscribe-Post).
// 2xx delivered; 5xx failed; a 4xx or no answer retried.
ChannelOutcome send_status_mail(const App& app, const std::string& to, const std::string& subject,
                                const std::string& text, const std::string& message_id, std::int64_t date_ms,
                                const std::vector<std::pair<std::string, std::string>>& headers);

}  // namespace edge::status
