#include "edge/status/incident_store.h"

#include <algorithm>

#include "core/date.h"
#include "core/id.h"
#include "core/restaurant/text_field.h"
#include "core/status/auto_incident.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_events.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;

std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

void erase_prefix(store::WriteTxn& txn, store::Table t, std::string_view prefix) {
  std::vector<std::string> keys;
  txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  for (auto& k : keys) txn.erase(t, k);
}

core::Result<std::string> localized_text(const json::value& v, std::string_view field,
                                         std::size_t max_chars) {
  if (!v.is_string())
    return core::make_error("invalid_field", "field '" + std::string(field) + "' must be a string");
  return core::restaurant::trimmed_text_field(v.get_string(), field, max_chars);
}

}  // namespace

std::string incident_prefix(std::string_view company_id, std::string_view page_id) {
  return cat({"c/", company_id, "/incident/", page_id, "/"});
}
std::string incident_key(std::string_view company_id, std::string_view page_id,
                         std::string_view incident_id) {
  return incident_prefix(company_id, page_id) + std::string(incident_id);
}
std::string auto_state_key(std::string_view check_id) {
  return cat({"ai/", check_id});
}
std::string auto_incident_prefix(std::string_view company_id, std::string_view page_id) {
  return cat({"c/", company_id, "/autoincident/", page_id, "/"});
}
std::string auto_incident_key(std::string_view company_id, std::string_view page_id,
                              std::string_view component_id) {
  return auto_incident_prefix(company_id, page_id) + std::string(component_id);
}

core::Result<std::optional<json::object>> localized_field(const json::object& body, std::string_view key,
                                                          std::size_t max_chars, bool required) {
  const std::string name(key);
  auto* v = body.if_contains(key);
  if (!v || v->is_null()) {
    if (required) return core::make_error("missing_field", "field '" + name + "' is required");
    return std::optional<json::object>();
  }
  if (v->is_string()) {
    auto text = localized_text(*v, name, max_chars);
    if (!text) return text.error();
    return std::optional<json::object>(json::object{{"tr", *text}, {"en", *text}});
  }
  if (!v->is_object())
    return core::make_error("invalid_field", "field '" + name + "' must be an object {tr, en} or a string");
  json::object out;
  for (const char* lang : {"tr", "en"}) {
    auto* t = v->get_object().if_contains(lang);
    if (!t || t->is_null())
      return core::make_error("missing_field", "field '" + name + "." + lang + "' is required");
    auto text = localized_text(*t, name + "." + lang, max_chars);
    if (!text) return text.error();
    out[lang] = *text;
  }
  return std::optional<json::object>(std::move(out));
}

core::Result<std::optional<std::vector<std::string>>> affected_components_field(App& app,
                                                                                const json::object& body,
                                                                                std::string_view company_id,
                                                                                std::string_view page_id,
                                                                                bool required) {
  auto* v = body.if_contains("affectedComponentIds");
  if (!v || v->is_null()) {
    if (required) return core::make_error("missing_field", "field 'affectedComponentIds' is required");
    return std::optional<std::vector<std::string>>();
  }
  auto ids = core::require_string_array(body, "affectedComponentIds");
  if (!ids) return ids.error();
  std::vector<std::string> out;
  for (auto& id : *ids) {
    if (std::find(out.begin(), out.end(), id) != out.end()) continue;
    std::optional<json::object> component;
    if (is_key_segment(id)) {
      auto got = get_record(app, component_key(company_id, page_id, id));
      if (!got) return got.error();
      component = std::move(*got);
    }
    if (!component)
      return core::make_error("invalid_component", "'" + id + "' is not a component of this page");
    out.push_back(id);
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

json::object new_incident(App& app, std::string_view page_id, const json::object& title,
                          std::string_view impact, const std::vector<std::string>& components,
                          std::string_view source, std::int64_t started_at_ms, std::int64_t now_ms) {
  const std::string now = core::format_timestamp(now_ms);
  return json::object{{"id", core::make_id("inc_", app.random)},
                      {"pageId", page_id},
                      {"title", title},
                      {"status", cs::wire_name(cs::IncidentStatus::investigating)},
                      {"impact", impact},
                      {"affectedComponentIds", record::array_of(components)},
                      {"source", source},
                      {"startedAt", core::format_timestamp(started_at_ms)},
                      {"resolvedAt", nullptr},
                      {"updates", json::array{}},
                      {"createdAt", now},
                      {"updatedAt", now}};
}

cs::IncidentStatus incident_status(const json::object& incident) {
  return cs::parse_incident_status(record::str(incident, "status"))
      .value_or(cs::IncidentStatus::investigating);
}

core::Result<json::object> add_incident_update(App& app, json::object& incident, cs::IncidentStatus status,
                                               const json::object& body, std::int64_t at_ms) {
  json::array& updates =
      incident["updates"].is_array() ? incident["updates"].as_array() : incident["updates"].emplace_array();
  // The first update sets the status the incident is created with, whatever it is.
  if (!updates.empty()) CORE_TRY(cs::check_incident_update(incident_status(incident), status));
  if (updates.size() >= kMaxIncidentUpdates)
    return core::make_error("too_many_updates",
                            "an incident keeps at most " + std::to_string(kMaxIncidentUpdates) + " updates");
  const std::string at = core::format_timestamp(at_ms);
  json::object update{{"id", core::make_id("upd_", app.random)},
                      {"status", cs::wire_name(status)},
                      {"body", body},
                      {"createdAt", at}};
  updates.emplace_back(update);
  incident["status"] = cs::wire_name(status);
  if (status == cs::IncidentStatus::resolved) incident["resolvedAt"] = at;
  incident["updatedAt"] = at;
  return update;
}

void enqueue_incident_event(App& app, store::WriteTxn& txn, std::string_view company_id,
                            const json::object& incident, const json::object& update) {
  const bool resolved = record::str(update, "status") == cs::wire_name(cs::IncidentStatus::resolved);
  StatusEvent event;
  event.event = resolved ? "incident.resolved" : "incident.updated";
  event.companyId = company_id;
  event.pageId = record::str(incident, "pageId");
  event.componentIds = record::strs(incident, "affectedComponentIds");
  event.data = json::object{{"incidentId", record::str(incident, "id")},
                            {"incidentTitle", incident.at("title")},
                            {"impact", record::str(incident, "impact")},
                            {"affectedComponentIds", record::array_of(event.componentIds)},
                            {"update", update}};
  event.atMs = core::parse_timestamp(record::str(update, "createdAt")).value_or(app.clock.now_ms());
  enqueue_event(app, txn, event);
}

void release_auto_incident(App& app, store::WriteTxn& txn, std::string_view company_id,
                           const json::object& incident) {
  if (record::str(incident, "source") != "auto") return;
  store::Table t = app.status_table;
  const std::string page_id = record::str(incident, "pageId"), id = record::str(incident, "id");
  for (auto& component_id : record::strs(incident, "affectedComponentIds")) {
    const std::string key = auto_incident_key(company_id, page_id, component_id);
    auto link = record::get_object(txn, t, key);
    if (!link || record::str(*link, "incidentId") != id) continue;
    for (auto& check_id : record::strs(*link, "checkIds")) txn.erase(t, auto_state_key(check_id));
    txn.erase(t, key);
  }
}

void erase_page_incidents(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                          std::string_view page_id) {
  erase_prefix(txn, t, incident_prefix(company_id, page_id));
  erase_prefix(txn, t, auto_incident_prefix(company_id, page_id));
}

}  // namespace edge::status
