#pragma once
// The events of a mail log (spec/DECISIONS.md: queued, sent, delivered, deferred, bounced, complained,
// suppressed). Whoever moves a log writes its timeline entry and calls record_events in the same
// transaction, which does what every event implies: the day's analytics counter, and a delivery for each
// webhook endpoint subscribed to it, and the log's filter index keys. So an event is counted and announced
// exactly when it is stored. The log record must be written in the transaction before the call: the index
// keys are derived from it.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/json.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::mail {

namespace json = core::json;

struct MailEvent {
  std::string event;      // queued, sent, delivered, deferred, bounced, complained, suppressed
  std::string log_id;     // the mail log it belongs to
  std::string recipient;  // empty for an event of the whole send (queued)
  std::string detail;     // the server's answer, the suppression reason, ...
  std::int64_t at_ms = 0;

  // The timeline entry and webhook payload: {event, mailLogId, recipient?, detail?, at}.
  json::object to_json() const;
};

void record_events(App& app, store::WriteTxn& txn, std::string_view company_id,
                   std::span<const MailEvent> events);

// The analytics counter key of `event` on day `day` (YYYY-MM-DD).
std::string stat_key(std::string_view company_id, std::string_view day, std::string_view event);

// The event names, in the order analytics lists them.
inline constexpr const char* kMailEvents[] = {"queued",  "sent",       "delivered", "deferred",
                                              "bounced", "complained", "suppressed"};

}  // namespace edge::mail
