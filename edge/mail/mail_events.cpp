#include "edge/mail/mail_events.h"

#include <charconv>
#include <map>

#include "core/date.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"

namespace edge::mail {

json::object MailEvent::to_json() const {
  json::object o{{"event", event}, {"mailLogId", log_id}};
  if (!recipient.empty()) o["recipient"] = recipient;
  if (!detail.empty()) o["detail"] = detail;
  o["at"] = core::format_timestamp(at_ms);
  return o;
}

std::string stat_key(std::string_view company_id, std::string_view day, std::string_view event) {
  return company_key(company_id, "stat", std::string(day) + "/" + std::string(event));
}

void record_events(App& app, store::WriteTxn& txn, std::string_view company_id,
                   std::span<const MailEvent> events) {
  // One read-modify-write per (day, event), however many events share it.
  std::map<std::string, std::int64_t> counts;
  for (const MailEvent& e : events)
    counts[stat_key(company_id, core::format_day_key(core::civil_from_unix_ms(e.at_ms).date), e.event)] += 1;
  for (const auto& [key, n] : counts) {
    std::int64_t current = 0;
    if (auto raw = txn.get(app.mail_table, key)) std::from_chars(raw->data(), raw->data() + raw->size(), current);
    txn.put(app.mail_table, key, std::to_string(current + n));
  }
}

}  // namespace edge::mail
