#pragma once
// The public snapshot of a status page (spec document 3, "Snapshot response fields") and its
// Statuspage-compatible summary (spec/DECISIONS.md), computed with the core rules (core/status/) from the
// stored checks, their summaries and their results of the last 90 days.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "core/status/uptime.h"
#include "edge/pages/lang.h"
#include "edge/status/status_store.h"

namespace edge::status {

struct CheckData {
  json::object check;
  std::optional<json::object> summary;  // none before the first probe
  core::status::CheckTime time;         // its time over the daily-history period (edge/status/rollup.h)
};

struct ComponentData {
  json::object component;
  std::vector<CheckData> checks;
  // The maintenance windows covering the component (left out of uptime and daily history), and whether one
  // is in progress at the load time (the component then shows `maintenance`). snapshot_incidents.h.
  std::vector<core::status::TimeRange> maintenance{};
  bool inMaintenance = false;
};

struct PageData {
  std::string companyId;
  json::object page;
  std::vector<ComponentData> components;  // display order
  // The page's incidents and maintenance windows as stored (snapshot_incidents.h), and the load time.
  std::vector<json::object> incidents{}, maintenances{};
  std::int64_t loadedAtMs = 0;
};

// The maintenance intervals covering a component (half-open), for its uptime, history and SLA report.
std::vector<core::status::TimeRange> component_maintenance(App& app, std::string_view company_id,
                                                           std::string_view page_id,
                                                           const json::object& component);

// Where the checks' time comes from: the per-day rollups plus the few days read exactly (the default), or
// every raw result of the 90 days (the reference the rollups are tested and benchmarked against).
enum class TimeSource { rollups, raw };

// Everything a snapshot shows of the page, read at `now_ms`: the checks' time since the first day of the
// 90-day history (UTC), which also covers the 30-day uptime window.
core::Result<PageData> load_page_data(App& app, PublicPage page, std::int64_t now_ms,
                                      TimeSource source = TimeSource::rollups);

// The snapshot: page {name, slug, branding, customDomain, subscribersEnabled}, overall, components [{id,
// name, status, uptime24h, uptime30d, lastCheckedAt, dailyHistory (90 {date, status}), checks [{id, name,
// status, lastLatencyMs, lastCheckedAt}]}], activeIncidents, upcomingMaintenances, pastIncidents,
// generatedAt, windowHours (24). Uptimes are percentages with two decimals (rounded down) of up time over up
// and down time (docs/status-rules.md, "Honest uptime"), null when none was observed. Incidents and
// maintenance windows: snapshot_incidents.h; `lang` chooses their texts.
json::object snapshot_json(const PageData& data, std::int64_t now_ms, Lang lang);

// Statuspage's /api/v2/summary.json shape: page {id, name, url, time_zone, updated_at}, status {indicator,
// description}, components [...], incidents (unresolved), scheduled_maintenances. `page_url` is the public
// page's address.
json::object statuspage_summary_json(const PageData& data, std::string_view page_url);

}  // namespace edge::status
