#pragma once
// The incident and maintenance members of the public snapshot and of the Statuspage-compatible summary
// (docs/status-incidents.md, "Snapshot and summary").

#include <cstdint>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "core/status/statuspage_summary.h"
#include "edge/pages/lang.h"
#include "edge/status/snapshot.h"

namespace edge::status {

inline constexpr std::int64_t kPastIncidentsMs = 90LL * 24 * 60 * 60 * 1000;  // resolved in the last 90 days
inline constexpr std::size_t kMaxPastIncidents = 50;
inline constexpr std::size_t kMaxUpcomingMaintenances = 50;

// The maintenance windows of a component among its page's `windows`: their intervals (left out of uptime
// and history) and whether one is in progress at `now_ms` (the component then shows `maintenance`).
struct ComponentMaintenance {
  std::vector<core::status::TimeRange> intervals;
  bool inProgress = false;
};
ComponentMaintenance component_maintenance_of(const std::vector<json::object>& windows,
                                              std::string_view component_id, std::int64_t now_ms);

// Reads the page's incidents into `data` (load_page_data reads the windows first: the components' time
// depends on them). Errors: the store's.
core::Status load_page_incidents(App& app, PageData& data, std::int64_t now_ms);

// activeIncidents: unresolved, newest startedAt first: [{id, title, status, impact, affectedComponentIds,
// startedAt, updates [{id, status, body, createdAt}] newest first}], texts in `lang`.
json::array active_incidents_json(const PageData& data, Lang lang);
// pastIncidents: resolved within kPastIncidentsMs of `now_ms`, newest resolvedAt first, at most
// kMaxPastIncidents: [{id, title, impact, startedAt, resolvedAt, affectedComponentIds}].
json::array past_incidents_json(const PageData& data, std::int64_t now_ms, Lang lang);
// upcomingMaintenances: windows scheduled or in progress at `now_ms`, soonest scheduledStart first, at most
// kMaxUpcomingMaintenances: [{id, title, description (null when none), status, scheduledStart, end,
// affectedComponentIds}].
json::array upcoming_maintenances_json(const PageData& data, std::int64_t now_ms, Lang lang);

// Statuspage's `incidents` (unresolved, with incident_updates newest first, English texts) and
// `scheduled_maintenances` (scheduled or in progress); `components` are the summary's component objects,
// which the entries repeat for their affected components as Statuspage does.
json::array summary_incidents_json(const PageData& data, const json::array& components,
                                   std::string_view page_url);
json::array summary_maintenances_json(const PageData& data, const json::array& components,
                                      std::string_view page_url);
// The unresolved incidents' impacts, for the page's status indicator.
std::vector<core::status::StatuspageIndicator> unresolved_impacts(const PageData& data);

}  // namespace edge::status
