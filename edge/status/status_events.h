#pragma once
// The status service's notifications (spec document 3, "Events"): incident.updated, incident.resolved,
// maintenance.scheduled, maintenance.reminder, maintenance.started, maintenance.completed.
//
// Contract: whoever changes an incident or a maintenance window calls enqueue_event in the same write
// transaction as the change, so an event exists exactly when its change was committed (a kill -9 between
// the two is impossible). After the commit it calls events_committed, which wakes the subscriber worker;
// without the wake-up the worker still finds the event at its next scan. The worker fans each event out to
// the page's subscribers whose topic and component filters match, and delivers at least once from there
// (docs/status-subscribers.md).
//
// Stored as `ev/<atMs, 13 digits>/<eventId>` in the status table: {id, event, companyId, pageId,
// componentIds, data, at}. The fixed width makes key order time order.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

struct StatusEvent {
  std::string event;  // one of the six names above
  std::string companyId, pageId;
  // The components the event concerns, for subscribers' component filters (an incident's or window's
  // affected components). Empty: the event concerns the whole page and reaches every subscriber of its topic.
  std::vector<std::string> componentIds;
  // The delivery body's `data`. For incident.updated (spec): {incidentId, incidentTitle {tr, en}, impact,
  // affectedComponentIds, update {id, status, body {tr, en}, createdAt}}.
  json::object data;
  std::int64_t atMs = 0;  // the body's `timestamp`
};

// `incidents` for incident.*, `maintenance` for maintenance.*: what a subscriber's topic filter matches.
std::string_view event_topic(std::string_view event);

std::string event_key(std::int64_t at_ms, std::string_view event_id);

// Writes the event into the outbox within `txn` and returns its id. The caller commits.
std::string enqueue_event(App& app, store::WriteTxn& txn, const StatusEvent& event);

// Wakes the subscriber worker after a commit that enqueued events. Safe to call when none is running.
void events_committed(App& app);

}  // namespace edge::status
