#include "edge/mail/mail_events.h"

#include <charconv>
#include <map>
#include <set>

#include "core/ascii.h"
#include "core/date.h"
#include "core/mail/send_request.h"
#include "edge/app.h"
#include "edge/mail/mail_store.h"
#include "edge/mail/webhooks.h"
#include "edge/platform/record_json.h"

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

namespace {

// Keeps the GET /logs indexes of one log (mail_store.h) in step with the log as its writer just stored it:
// the first event of a log writes every index entry; later ones move its status entry when the status
// changed. Every writer of a log puts the log before it calls record_events, in the same transaction.
void index_log(App& app, store::WriteTxn& txn, std::string_view company_id, std::string_view log_id) {
  auto log = get_object(txn, app.mail_table, company_key(company_id, "log", log_id));
  if (!log) return;
  auto created = core::parse_timestamp(record::str(*log, "createdAt"));
  const std::string order = log_order(created ? *created : 0, log_id);
  const std::string status = record::str(*log, "status");
  const std::string all = log_index_prefix(company_id, "all") + order;
  auto indexed = txn.get(app.mail_table, all);
  if (indexed && *indexed == status) return;
  if (indexed) {
    txn.erase(app.mail_table, log_index_prefix(company_id, "status", *indexed) + order);
  } else {
    txn.put(app.mail_table,
            log_index_prefix(company_id, "domain", core::to_ascii_lower(record::str(*log, "domain"))) + order,
            "");
    if (auto from = core::mail::parse_mail_address(record::str(*log, "from")))
      txn.put(app.mail_table,
              log_index_prefix(company_id, "from", core::to_ascii_lower(from->address)) + order, "");
    std::set<std::string> to;
    for (const auto& address : record::strs(*log, "to")) to.insert(core::to_ascii_lower(address));
    for (const auto& address : to)
      txn.put(app.mail_table, log_index_prefix(company_id, "to", address) + order, "");
  }
  txn.put(app.mail_table, log_index_prefix(company_id, "status", status) + order, "");
  txn.put(app.mail_table, all, status);
}

}  // namespace

void record_events(App& app, store::WriteTxn& txn, std::string_view company_id,
                   std::span<const MailEvent> events) {
  // One read-modify-write per (day, event), however many events share it.
  std::map<std::string, std::int64_t> counts;
  for (const MailEvent& e : events)
    counts[stat_key(company_id, core::format_day_key(core::civil_from_unix_ms(e.at_ms).date), e.event)] += 1;
  for (const auto& [key, n] : counts) {
    std::int64_t current = 0;
    if (auto raw = txn.get(app.mail_table, key))
      std::from_chars(raw->data(), raw->data() + raw->size(), current);
    txn.put(app.mail_table, key, std::to_string(current + n));
  }
  std::set<std::string_view> logs;
  for (const MailEvent& e : events) logs.insert(e.log_id);
  for (std::string_view log_id : logs) index_log(app, txn, company_id, log_id);
  enqueue_webhook_deliveries(app, txn, company_id, events);
}

}  // namespace edge::mail
