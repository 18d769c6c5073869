// Automatic incidents (docs/status-incidents.md, "Automatic incidents"): each check's verdicts feed its
// core::status::AutoIncidentState (stored under ai/<checkId>) in the transaction that stores the result.
// One automatic incident per component: the first of its checks to open one creates it, later ones join
// it, and it resolves when the last of them has recovered (30 minutes of recovered operation each).

#include <algorithm>

#include "core/date.h"
#include "core/status/auto_incident.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/incident_store.h"
#include "edge/status/maintenance_store.h"
#include "edge/status/page_events.h"
#include "edge/status/status_events.h"
#include "edge/status/status_store.h"
#include "edge/status/verdict_hooks.h"

namespace edge::status {
namespace {

namespace cs = core::status;

cs::AutoIncidentState read_state(const json::object& o) {
  cs::AutoIncidentState s;
  s.consecutiveFailures = static_cast<int>(record::num(o, "consecutiveFailures"));
  s.failingSinceMs = record::num(o, "failingSinceMs");
  s.open = record::boolean(o, "open");
  s.incidentStartedAtMs = record::num(o, "incidentStartedAtMs");
  s.recovering = record::boolean(o, "recovering");
  s.recoveringSinceMs = record::num(o, "recoveringSinceMs");
  return s;
}

json::object state_json(const cs::AutoIncidentState& s) {
  return json::object{{"consecutiveFailures", s.consecutiveFailures},
                      {"failingSinceMs", s.failingSinceMs},
                      {"open", s.open},
                      {"incidentStartedAtMs", s.incidentStartedAtMs},
                      {"recovering", s.recovering},
                      {"recoveringSinceMs", s.recoveringSinceMs}};
}

// The texts of an automatic incident, naming the component and the check.
json::object opened_title(std::string_view component) {
  return json::object{{"tr", std::string(component) + " hizmetinde kesinti"},
                      {"en", std::string(component) + " outage"}};
}
json::object opened_body(std::string_view component, std::string_view check, std::int64_t since_ms) {
  const std::string since = core::format_timestamp(since_ms);
  return json::object{{"tr", "Otomatik izleme, " + std::string(component) + " bileşeninin \"" +
                                 std::string(check) + "\" denetiminin " + since + " itibarıyla art arda " +
                                 std::to_string(cs::kAutoIncidentOpenFailures) +
                                 " kez başarısız olduğunu tespit etti. İnceliyoruz."},
                      {"en", "Automatic monitoring found " + std::to_string(cs::kAutoIncidentOpenFailures) +
                                 " consecutive failures of the check \"" + std::string(check) + "\" of " +
                                 std::string(component) + " since " + since + ". We are investigating."}};
}
json::object resolved_body(std::string_view component, std::string_view check) {
  return json::object{
      {"tr", std::string(component) + " bileşeninin \"" + std::string(check) +
                 "\" denetimi 30 dakikadır sorunsuz çalışıyor. Olay otomatik olarak çözüldü."},
      {"en", "The check \"" + std::string(check) + "\" of " + std::string(component) +
                 " has been operating normally for 30 minutes. The incident was resolved automatically."}};
}

struct Names {
  std::string component, check;
};
Names names(App& app, store::WriteTxn& txn, const Verdict& v) {
  store::Table t = app.status_table;
  auto component = record::get_object(txn, t, component_key(v.companyId, v.pageId, v.componentId));
  auto check = record::get_object(txn, t, check_key(v.companyId, v.pageId, v.componentId, v.checkId));
  return {component ? record::str(*component, "name") : std::string(v.componentId),
          check ? record::str(*check, "name") : std::string(v.checkId)};
}

// The component's open automatic incident, when its link names one that is still open.
std::optional<json::object> open_linked_incident(App& app, store::WriteTxn& txn, const Verdict& v,
                                                 const json::object& link) {
  auto incident = record::get_object(txn, app.status_table,
                                     incident_key(v.companyId, v.pageId, record::str(link, "incidentId")));
  if (!incident || incident_status(*incident) == cs::IncidentStatus::resolved) return std::nullopt;
  return incident;
}

// A check of the component opened an automatic incident: join the component's open one, or create it.
// Returns whether an event was written.
bool on_opened(App& app, store::WriteTxn& txn, const Verdict& v, std::int64_t started_at_ms) {
  store::Table t = app.status_table;
  const std::string link_key = auto_incident_key(v.companyId, v.pageId, v.componentId);
  auto link = record::get_object(txn, t, link_key);
  if (link && open_linked_incident(app, txn, v, *link)) {
    auto checks = record::strs(*link, "checkIds");
    if (std::find(checks.begin(), checks.end(), v.checkId) == checks.end()) checks.emplace_back(v.checkId);
    (*link)["checkIds"] = record::array_of(checks);
    record::put_object(txn, t, link_key, *link);
    return false;
  }
  Names n = names(app, txn, v);
  json::object incident = new_incident(app, v.pageId, opened_title(n.component), "major",
                                       {std::string(v.componentId)}, "auto", started_at_ms, v.result.atMs);
  auto update = add_incident_update(app, incident, cs::IncidentStatus::investigating,
                                    opened_body(n.component, n.check, started_at_ms), v.result.atMs);
  if (!update) return false;  // a fresh record takes its first update
  const std::string id = record::str(incident, "id");
  record::put_object(txn, t, incident_key(v.companyId, v.pageId, id), incident);
  record::put_object(txn, t, link_key,
                     json::object{{"incidentId", id}, {"checkIds", json::array{std::string(v.checkId)}}});
  enqueue_incident_event(app, txn, v.companyId, incident, *update);
  return true;
}

// A check recovered: it no longer holds the component's incident open; the last one to recover resolves
// it. Checks deleted meanwhile hold nothing open.
bool on_resolved(App& app, store::WriteTxn& txn, const Verdict& v) {
  store::Table t = app.status_table;
  const std::string link_key = auto_incident_key(v.companyId, v.pageId, v.componentId);
  auto link = record::get_object(txn, t, link_key);
  if (!link) return false;  // resolved or deleted by hand meanwhile
  std::vector<std::string> holding;
  for (auto& id : record::strs(*link, "checkIds"))
    if (id != v.checkId && txn.get(t, check_index_key(id))) holding.push_back(id);
  auto incident = open_linked_incident(app, txn, v, *link);
  if (!incident || holding.empty()) txn.erase(t, link_key);
  if (!incident) return false;
  if (!holding.empty()) {
    (*link)["checkIds"] = record::array_of(holding);
    record::put_object(txn, t, link_key, *link);
    return false;
  }
  Names n = names(app, txn, v);
  auto update = add_incident_update(app, *incident, cs::IncidentStatus::resolved,
                                    resolved_body(n.component, n.check), v.result.atMs);
  if (!update) return false;  // an open incident accepts resolved, unless its timeline is full
  record::put_object(txn, t, incident_key(v.companyId, v.pageId, record::str(*incident, "id")), *incident);
  enqueue_incident_event(app, txn, v.companyId, *incident, *update);
  return true;
}

// Whether a maintenance window in progress at `at_ms` covers the verdict's component: planned work is
// expected to fail probes, so its failures neither count towards nor keep open an automatic incident.
bool in_maintenance(App& app, store::WriteTxn& txn, const Verdict& v, std::int64_t at_ms) {
  bool covered = false;
  txn.scan(app.status_table, maintenance_prefix(v.companyId, v.pageId),
           [&](std::string_view, std::string_view value) {
             auto w = core::parse_json_object(value);
             if (!w) return true;
             auto ids = record::strs(*w, "affectedComponentIds");
             covered = std::find(ids.begin(), ids.end(), v.componentId) != ids.end() &&
                       cs::maintenance_state(window_of(*w), at_ms) == cs::MaintenanceState::in_progress;
             return !covered;
           });
  return covered;
}

}  // namespace

void auto_incidents_on_verdict(App& app, store::WriteTxn& txn, const Verdict& verdict, AfterCommit& after) {
  store::Table t = app.status_table;
  if (verdict.result.status == cs::ProbeStatus::down &&
      in_maintenance(app, txn, verdict, verdict.result.atMs))
    return;
  const std::string key = auto_state_key(verdict.checkId);
  auto stored = record::get_object(txn, t, key);
  const cs::AutoIncidentState state = stored ? read_state(*stored) : cs::AutoIncidentState{};
  const cs::AutoIncidentStep step = cs::feed_auto_incident(state, verdict.result.atMs, verdict.result.status);
  if (step.state == cs::AutoIncidentState{}) {
    if (stored) txn.erase(t, key);  // the usual case stores nothing: a healthy check has no state
  } else if (step.state != state || !stored) {
    record::put_object(txn, t, key, state_json(step.state));
  }
  bool notified = false;
  if (step.event == cs::AutoIncidentEvent::opened)
    notified = on_opened(app, txn, verdict, step.state.incidentStartedAtMs);
  else if (step.event == cs::AutoIncidentEvent::resolved)
    notified = on_resolved(app, txn, verdict);
  if (!notified) return;
  std::string company(verdict.companyId), page(verdict.pageId);
  after.emplace_back([&app, company, page] {
    events_committed(app);
    page_changed(app, company, page);
  });
}

}  // namespace edge::status
