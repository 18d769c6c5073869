#include "edge/status/status_events.h"

#include <cstdio>

#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"

namespace edge::status {

std::string_view event_topic(std::string_view event) {
  return event.starts_with("maintenance.") ? "maintenance" : "incidents";
}

std::string event_key(std::int64_t at_ms, std::string_view event_id) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%013lld", static_cast<long long>(at_ms < 0 ? 0 : at_ms));
  return std::string("ev/") + digits + "/" + std::string(event_id);
}

std::string enqueue_event(App& app, store::WriteTxn& txn, const StatusEvent& event) {
  std::string id = core::make_id("evt_", app.random);
  json::object rec{{"id", id},
                   {"event", event.event},
                   {"companyId", event.companyId},
                   {"pageId", event.pageId},
                   {"componentIds", record::array_of(event.componentIds)},
                   {"data", event.data},
                   {"at", event.atMs}};
  record::put_object(txn, app.status_table, event_key(event.atMs, id), rec);
  return id;
}

void events_committed(App& app) {
  if (app.status_subscribers) app.status_subscribers->wake();
}

}  // namespace edge::status
