#pragma once
// Incidents of a status page (docs/status-incidents.md): their records, their timeline updates and the
// notifications each update writes into the outbox (edge/status/status_events.h) in the same transaction.
// Shared by the dashboard routes (incident_routes.cpp) and the automatic incidents (auto_incidents.cpp).
//
// Record under c/<companyId>/incident/<pageId>/<incidentId>: {id, pageId, title {tr, en}, status, impact,
// affectedComponentIds, source (`manual` | `auto`), startedAt, resolvedAt (null while open), updates [{id,
// status, body {tr, en}, createdAt}] oldest first, createdAt, updatedAt}. Times are ISO 8601 strings.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "core/status/incident.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

inline constexpr std::size_t kMaxTitleChars = 200;
inline constexpr std::size_t kMaxBodyChars = 5000;
// Updates one incident keeps; a longer timeline is refused (`too_many_updates`) so a record stays small.
inline constexpr std::size_t kMaxIncidentUpdates = 100;

std::string incident_prefix(std::string_view company_id, std::string_view page_id);
std::string incident_key(std::string_view company_id, std::string_view page_id, std::string_view incident_id);
// Automatic incidents: the state machine of each check (core::status::AutoIncidentState) and the open
// automatic incident of each component with the checks that hold it open (auto_incidents.cpp).
std::string auto_state_key(std::string_view check_id);
std::string auto_incident_prefix(std::string_view company_id, std::string_view page_id);
std::string auto_incident_key(std::string_view company_id, std::string_view page_id,
                              std::string_view component_id);

// A localized text member {tr, en}: an object with both languages (each trimmed, 1..max_chars), or one
// string used for both. Missing or null: `missing_field` (required) / nullopt; anything else wrong:
// `invalid_field` naming the member.
core::Result<std::optional<json::object>> localized_field(const json::object& body, std::string_view key,
                                                          std::size_t max_chars, bool required);

// `affectedComponentIds`: an array of distinct ids of the page's components, at most one per component.
// Missing: nullopt (or `missing_field` when required). Errors: `invalid_field` (not an array of strings),
// `invalid_component` (an id that is not one of the page's components). Duplicates are dropped.
core::Result<std::optional<std::vector<std::string>>> affected_components_field(
    App& app, const json::object& body, std::string_view company_id, std::string_view page_id, bool required);

// A new incident record (no update yet): status investigating until the first update is added.
json::object new_incident(App& app, std::string_view page_id, const json::object& title,
                          std::string_view impact, const std::vector<std::string>& components,
                          std::string_view source, std::int64_t started_at_ms, std::int64_t now_ms);

// Appends an update to `incident` and moves its status (core::status::check_incident_update decides:
// `incident_resolved`, `invalid_incident_transition`; `too_many_updates`); resolving sets resolvedAt.
// Returns the update as stored.
core::Result<json::object> add_incident_update(App& app, json::object& incident,
                                               core::status::IncidentStatus status, const json::object& body,
                                               std::int64_t at_ms);

// Writes incident.updated (or incident.resolved for a resolving update) for `update` into the outbox:
// data {incidentId, incidentTitle {tr, en}, impact, affectedComponentIds, update {id, status, body {tr,
// en}, createdAt}}; the event concerns the affected components.
void enqueue_incident_event(App& app, store::WriteTxn& txn, std::string_view company_id,
                            const json::object& incident, const json::object& update);

// When `incident` stops being open other than by its checks' recovery (resolved by hand, deleted): if it is
// its components' automatic incident, drop that link and reset the state machines of the checks that held
// it, so they count failures afresh (3 more failures open a new incident).
void release_auto_incident(App& app, store::WriteTxn& txn, std::string_view company_id,
                           const json::object& incident);

// The incident's status (investigating for a record without a valid one).
core::status::IncidentStatus incident_status(const json::object& incident);

// Removes every incident of a page with its automatic-incident links (delete_page).
void erase_page_incidents(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                          std::string_view page_id);

}  // namespace edge::status
