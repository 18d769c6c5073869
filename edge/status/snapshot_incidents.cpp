#include "edge/status/snapshot_incidents.h"

#include <algorithm>
#include <tuple>

#include "core/date.h"
#include "core/status/incident.h"
#include "core/status/maintenance.h"
#include "edge/platform/record_json.h"
#include "edge/status/incident_store.h"
#include "edge/status/maintenance_store.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;

bool resolved(const json::object& incident) {
  return incident_status(incident) == cs::IncidentStatus::resolved;
}

// A {tr, en} member in `lang`; null when the member is not such an object.
json::value localized(const json::object& o, std::string_view key, Lang lang) {
  auto* v = o.if_contains(key);
  if (!v || !v->is_object()) return nullptr;
  return json::value(record::str(v->get_object(), lang_code(lang)));
}

json::array updates_newest_first(const json::object& incident) {
  json::array out;
  if (auto* u = incident.if_contains("updates"); u && u->is_array())
    for (auto it = u->get_array().rbegin(); it != u->get_array().rend(); ++it)
      if (it->is_object()) out.push_back(*it);
  return out;
}

json::value member(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v ? *v : json::value(nullptr);
}

json::array components_of(const json::object& rec, const json::array& components) {
  json::array out;
  for (auto& id : record::strs(rec, "affectedComponentIds"))
    for (auto& c : components)
      if (c.is_object() && record::str(c.get_object(), "id") == id) out.push_back(c);
  return out;
}

// The time of the first update with `status`, or null.
json::value first_update_at(const json::object& incident, std::string_view status) {
  if (auto* u = incident.if_contains("updates"); u && u->is_array())
    for (auto& update : u->get_array())
      if (update.is_object() && record::str(update.get_object(), "status") == status)
        return member(update.get_object(), "createdAt");
  return nullptr;
}

bool upcoming(const json::object& window, std::int64_t now_ms) {
  auto state = cs::maintenance_state(window_of(window), now_ms);
  return state == cs::MaintenanceState::scheduled || state == cs::MaintenanceState::in_progress;
}

// The page's windows scheduled or in progress, soonest first, bounded.
std::vector<const json::object*> upcoming_windows(const PageData& data, std::int64_t now_ms) {
  std::vector<const json::object*> out;
  for (auto& w : data.maintenances)
    if (upcoming(w, now_ms)) out.push_back(&w);
  std::stable_sort(out.begin(), out.end(), [](const json::object* a, const json::object* b) {
    return std::tuple(record::str(*a, "scheduledStart"), record::str(*a, "id")) <
           std::tuple(record::str(*b, "scheduledStart"), record::str(*b, "id"));
  });
  if (out.size() > kMaxUpcomingMaintenances) out.resize(kMaxUpcomingMaintenances);
  return out;
}

// Unresolved incidents, newest startedAt first.
std::vector<const json::object*> active_incidents(const PageData& data) {
  std::vector<const json::object*> out;
  for (auto& i : data.incidents)
    if (!resolved(i)) out.push_back(&i);
  std::stable_sort(out.begin(), out.end(), [](const json::object* a, const json::object* b) {
    return std::tuple(record::str(*a, "startedAt"), record::str(*a, "id")) >
           std::tuple(record::str(*b, "startedAt"), record::str(*b, "id"));
  });
  return out;
}

}  // namespace

ComponentMaintenance component_maintenance_of(const std::vector<json::object>& windows,
                                              std::string_view component_id, std::int64_t now_ms) {
  ComponentMaintenance out;
  for (const auto& w : windows) {
    auto ids = record::strs(w, "affectedComponentIds");
    if (std::find(ids.begin(), ids.end(), component_id) == ids.end()) continue;
    const cs::MaintenanceWindow window = window_of(w);
    if (auto interval = cs::maintenance_interval(window)) out.intervals.push_back(*interval);
    if (cs::maintenance_state(window, now_ms) == cs::MaintenanceState::in_progress) out.inProgress = true;
  }
  return out;
}

core::Status load_page_incidents(App& app, PageData& data, std::int64_t now_ms) {
  auto incidents = list_records(app, incident_prefix(data.companyId, record::str(data.page, "id")));
  if (!incidents) return incidents.error();
  data.incidents = std::move(*incidents);
  data.loadedAtMs = now_ms;
  return {};
}

json::array active_incidents_json(const PageData& data, Lang lang) {
  json::array out;
  for (const json::object* i : active_incidents(data)) {
    json::array updates;
    for (auto& u : updates_newest_first(*i)) {
      const json::object& update = u.get_object();
      updates.emplace_back(json::object{{"id", member(update, "id")},
                                        {"status", member(update, "status")},
                                        {"body", localized(update, "body", lang)},
                                        {"createdAt", member(update, "createdAt")}});
    }
    out.emplace_back(json::object{{"id", member(*i, "id")},
                                  {"title", localized(*i, "title", lang)},
                                  {"status", member(*i, "status")},
                                  {"impact", member(*i, "impact")},
                                  {"affectedComponentIds", member(*i, "affectedComponentIds")},
                                  {"startedAt", member(*i, "startedAt")},
                                  {"updates", std::move(updates)}});
  }
  return out;
}

json::array past_incidents_json(const PageData& data, std::int64_t now_ms, Lang lang) {
  std::vector<const json::object*> past;
  for (auto& i : data.incidents) {
    if (!resolved(i)) continue;
    auto at = core::parse_timestamp(record::str(i, "resolvedAt"));
    if (at && *at > now_ms - kPastIncidentsMs) past.push_back(&i);
  }
  std::stable_sort(past.begin(), past.end(), [](const json::object* a, const json::object* b) {
    return std::tuple(record::str(*a, "resolvedAt"), record::str(*a, "id")) >
           std::tuple(record::str(*b, "resolvedAt"), record::str(*b, "id"));
  });
  if (past.size() > kMaxPastIncidents) past.resize(kMaxPastIncidents);
  json::array out;
  for (const json::object* i : past)
    out.emplace_back(json::object{{"id", member(*i, "id")},
                                  {"title", localized(*i, "title", lang)},
                                  {"impact", member(*i, "impact")},
                                  {"startedAt", member(*i, "startedAt")},
                                  {"resolvedAt", member(*i, "resolvedAt")},
                                  {"affectedComponentIds", member(*i, "affectedComponentIds")}});
  return out;
}

json::array upcoming_maintenances_json(const PageData& data, std::int64_t now_ms, Lang lang) {
  json::array out;
  for (const json::object* w : upcoming_windows(data, now_ms))
    out.emplace_back(json::object{{"id", member(*w, "id")},
                                  {"title", localized(*w, "title", lang)},
                                  {"description", localized(*w, "description", lang)},
                                  {"status", cs::wire_name(cs::maintenance_state(window_of(*w), now_ms))},
                                  {"scheduledStart", member(*w, "scheduledStart")},
                                  {"end", member(*w, "end")},
                                  {"affectedComponentIds", member(*w, "affectedComponentIds")}});
  return out;
}

json::array summary_incidents_json(const PageData& data, const json::array& components,
                                   std::string_view page_url) {
  json::array out;
  for (const json::object* i : active_incidents(data)) {
    const std::string id = record::str(*i, "id");
    json::array updates;
    for (auto& u : updates_newest_first(*i)) {
      const json::object& update = u.get_object();
      updates.emplace_back(json::object{{"id", member(update, "id")},
                                        {"status", member(update, "status")},
                                        {"body", localized(update, "body", Lang::en)},
                                        {"incident_id", id},
                                        {"created_at", member(update, "createdAt")},
                                        {"updated_at", member(update, "createdAt")},
                                        {"display_at", member(update, "createdAt")},
                                        {"affected_components", nullptr},
                                        {"deliver_notifications", true},
                                        {"custom_tweet", nullptr},
                                        {"tweet_id", nullptr}});
    }
    out.emplace_back(json::object{{"id", id},
                                  {"name", localized(*i, "title", Lang::en)},
                                  {"status", member(*i, "status")},
                                  {"created_at", member(*i, "createdAt")},
                                  {"updated_at", member(*i, "updatedAt")},
                                  {"monitoring_at", first_update_at(*i, "monitoring")},
                                  {"resolved_at", nullptr},
                                  {"impact", member(*i, "impact")},
                                  {"shortlink", page_url},
                                  {"started_at", member(*i, "startedAt")},
                                  {"page_id", record::str(data.page, "id")},
                                  {"incident_updates", std::move(updates)},
                                  {"components", components_of(*i, components)}});
  }
  return out;
}

json::array summary_maintenances_json(const PageData& data, const json::array& components,
                                      std::string_view page_url) {
  json::array out;
  const std::int64_t now = data.loadedAtMs;
  for (const json::object* w : upcoming_windows(data, now)) {
    json::object view = maintenance_view(*w, now);
    out.emplace_back(json::object{{"id", member(*w, "id")},
                                  {"name", localized(*w, "title", Lang::en)},
                                  {"status", member(view, "status")},
                                  {"created_at", member(*w, "createdAt")},
                                  {"updated_at", member(*w, "updatedAt")},
                                  {"monitoring_at", nullptr},
                                  {"resolved_at", nullptr},
                                  {"impact", "maintenance"},
                                  {"shortlink", page_url},
                                  {"started_at", view.at("startedAt").is_null() ? member(*w, "scheduledStart")
                                                                                : member(view, "startedAt")},
                                  {"page_id", record::str(data.page, "id")},
                                  {"incident_updates", json::array{}},
                                  {"components", components_of(*w, components)},
                                  {"scheduled_for", member(*w, "scheduledStart")},
                                  {"scheduled_until", member(*w, "end")}});
  }
  return out;
}

std::vector<cs::StatuspageIndicator> unresolved_impacts(const PageData& data) {
  std::vector<cs::StatuspageIndicator> out;
  for (const json::object* i : active_incidents(data))
    if (auto impact = cs::parse_incident_impact(record::str(*i, "impact"))) out.push_back(*impact);
  return out;
}

}  // namespace edge::status
