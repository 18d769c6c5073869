#pragma once
// Maintenance windows of a status page (docs/status-incidents.md, "Maintenance windows"): their records,
// their state from core/status/maintenance.h, and the notifications they owe (maintenance.scheduled,
// .reminder, .started, .completed), each written exactly once into the outbox in the transaction that
// records it as sent.
//
// Record under c/<companyId>/maintenance/<pageId>/<windowId>: {id, pageId, title {tr, en}, description
// {tr, en} or null, scheduledStart, end, affectedComponentIds, manualStartAt, manualCompleteAt,
// cancelledAt (each null until that action), reminderSent, startedSent, completedSent, createdAt,
// updatedAt}. While a window still owes a notification, mnt/<windowId> = {companyId, pageId} lets the
// maintenance ticker find it without scanning every company.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/status/maintenance.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

std::string maintenance_prefix(std::string_view company_id, std::string_view page_id);
std::string maintenance_key(std::string_view company_id, std::string_view page_id,
                            std::string_view window_id);
std::string maintenance_index_key(std::string_view window_id);

// The stored times as the core's window.
core::status::MaintenanceWindow window_of(const json::object& rec);

// The window as the dashboard shows it at `now_ms`: the record plus `status` (scheduled, in_progress,
// completed, cancelled), `startedAt` (when it began, by "Start now" or the clock; null before) and
// `completedAt` (when it ended; null before).
json::object maintenance_view(const json::object& rec, std::int64_t now_ms);

// Writes every notification `rec` owes at `now_ms` into the outbox and marks it sent, in order: reminder
// (core reminder_due), started (once in progress or past), completed (once completed). A window that owes
// nothing more (completed and notified, or cancelled) leaves the ticker's index. Events written by one
// call are stamped now_ms (or first_event_ms when set), then 1 ms apart, so the outbox's time order is their
// order. Returns whether `rec` changed; the caller stores it in the same transaction.
bool advance_maintenance(App& app, store::WriteTxn& txn, std::string_view company_id, json::object& rec,
                         std::int64_t now_ms, std::int64_t first_event_ms = 0);

// Writes maintenance.scheduled for a new window (data as every maintenance event: {maintenanceId, title
// {tr, en}, description {tr, en} or null, scheduledStart, end, affectedComponentIds, status}).
void enqueue_maintenance_scheduled(App& app, store::WriteTxn& txn, std::string_view company_id,
                                   const json::object& rec, std::int64_t now_ms);

// Removes every window of a page and its ticker index entries (delete_page).
void erase_page_maintenances(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                             std::string_view page_id);

}  // namespace edge::status
