#include "edge/status/maintenance_store.h"

#include <vector>

#include "core/date.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_events.h"

namespace edge::status {
namespace {

namespace cs = core::status;

std::optional<std::int64_t> time_of(const json::object& rec, std::string_view key) {
  auto text = record::str(rec, key);
  if (text.empty()) return std::nullopt;
  auto ms = core::parse_timestamp(text);
  if (!ms) return std::nullopt;
  return *ms;
}

void enqueue(App& app, store::WriteTxn& txn, std::string_view company_id, const json::object& rec,
             std::string_view event, cs::MaintenanceState status, std::int64_t now_ms) {
  StatusEvent e;
  e.event = event;
  e.companyId = company_id;
  e.pageId = record::str(rec, "pageId");
  e.componentIds = record::strs(rec, "affectedComponentIds");
  e.data = json::object{{"maintenanceId", record::str(rec, "id")},
                        {"title", rec.contains("title") ? rec.at("title") : json::value()},
                        {"description", rec.contains("description") ? rec.at("description") : json::value()},
                        {"scheduledStart", record::str(rec, "scheduledStart")},
                        {"end", record::str(rec, "end")},
                        {"affectedComponentIds", record::array_of(e.componentIds)},
                        {"status", cs::wire_name(status)}};
  e.atMs = now_ms;
  enqueue_event(app, txn, e);
}

}  // namespace

std::string maintenance_prefix(std::string_view company_id, std::string_view page_id) {
  return "c/" + std::string(company_id) + "/maintenance/" + std::string(page_id) + "/";
}
std::string maintenance_key(std::string_view company_id, std::string_view page_id,
                            std::string_view window_id) {
  return maintenance_prefix(company_id, page_id) + std::string(window_id);
}
std::string maintenance_index_key(std::string_view window_id) {
  return "mnt/" + std::string(window_id);
}

cs::MaintenanceWindow window_of(const json::object& rec) {
  cs::MaintenanceWindow w;
  w.createdAtMs = time_of(rec, "createdAt").value_or(0);
  w.scheduledStartMs = time_of(rec, "scheduledStart").value_or(0);
  w.endMs = time_of(rec, "end").value_or(0);
  w.startedAtMs = time_of(rec, "manualStartAt");
  w.completedAtMs = time_of(rec, "manualCompleteAt");
  w.cancelledAtMs = time_of(rec, "cancelledAt");
  return w;
}

json::object maintenance_view(const json::object& rec, std::int64_t now_ms) {
  json::object out = rec;
  const cs::MaintenanceWindow w = window_of(rec);
  const cs::MaintenanceState state = cs::maintenance_state(w, now_ms);
  auto interval = cs::maintenance_interval(w);
  const bool begun =
      interval && (state == cs::MaintenanceState::in_progress || state == cs::MaintenanceState::completed);
  out["status"] = cs::wire_name(state);
  out["startedAt"] = begun ? json::value(core::format_timestamp(interval->startMs)) : json::value(nullptr);
  out["completedAt"] = begun && state == cs::MaintenanceState::completed
                           ? json::value(core::format_timestamp(interval->endMs))
                           : json::value(nullptr);
  return out;
}

bool advance_maintenance(App& app, store::WriteTxn& txn, std::string_view company_id, json::object& rec,
                         std::int64_t now_ms, std::int64_t first_event_ms) {
  const cs::MaintenanceWindow w = window_of(rec);
  const cs::MaintenanceState state = cs::maintenance_state(w, now_ms);
  bool changed = false;
  // Events written together are 1 ms apart: the outbox's keys order events by time, and started must
  // precede completed for a window the ticker reaches late.
  std::int64_t at = first_event_ms > 0 ? first_event_ms : now_ms;
  auto send_once = [&](std::string_view flag, std::string_view event, cs::MaintenanceState status) {
    if (record::boolean(rec, flag)) return;
    enqueue(app, txn, company_id, rec, event, status, at++);
    rec[flag] = true;
    changed = true;
  };
  if (cs::reminder_due(w, now_ms, record::boolean(rec, "reminderSent")))
    send_once("reminderSent", "maintenance.reminder", cs::MaintenanceState::scheduled);
  if (state == cs::MaintenanceState::in_progress || state == cs::MaintenanceState::completed)
    send_once("startedSent", "maintenance.started", cs::MaintenanceState::in_progress);
  if (state == cs::MaintenanceState::completed)
    send_once("completedSent", "maintenance.completed", cs::MaintenanceState::completed);
  const std::string index = maintenance_index_key(record::str(rec, "id"));
  if (state == cs::MaintenanceState::cancelled || state == cs::MaintenanceState::completed)
    txn.erase(app.status_table, index);
  else if (!txn.get(app.status_table, index))
    record::put_object(txn, app.status_table, index,
                       json::object{{"companyId", company_id}, {"pageId", record::str(rec, "pageId")}});
  return changed;
}

void enqueue_maintenance_scheduled(App& app, store::WriteTxn& txn, std::string_view company_id,
                                   const json::object& rec, std::int64_t now_ms) {
  enqueue(app, txn, company_id, rec, "maintenance.scheduled", cs::MaintenanceState::scheduled, now_ms);
}

void erase_page_maintenances(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                             std::string_view page_id) {
  std::vector<std::string> keys, ids;
  txn.scan(t, maintenance_prefix(company_id, page_id), [&](std::string_view key, std::string_view value) {
    keys.emplace_back(key);
    if (auto o = core::parse_json_object(value)) ids.push_back(record::str(*o, "id"));
    return true;
  });
  for (auto& id : ids)
    if (!id.empty()) txn.erase(t, maintenance_index_key(id));
  for (auto& k : keys) txn.erase(t, k);
}

}  // namespace edge::status
