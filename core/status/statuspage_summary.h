#pragma once
// The Statuspage-compatible summary (spec/DECISIONS.md, Status service: "a Statuspage-compatible summary at
// {status_url}/api/v1/status/{slug}/summary.json ... in Statuspage's shape"): how our statuses read in
// Atlassian Statuspage's /api/v2/summary.json vocabulary. Pure mapping; the edge builds the document.

#include <span>
#include <string_view>

#include "core/result.h"
#include "core/status/status.h"

namespace core::status {

// Statuspage's five component statuses.
enum class StatuspageComponentStatus {
  operational,
  degraded_performance,
  partial_outage,
  major_outage,
  under_maintenance
};

// Statuspage's page indicator (`status.indicator`), least to most severe.
enum class StatuspageIndicator { none, minor, major, critical };

// A component's Statuspage status:
//   maintenance -> under_maintenance; degraded -> degraded_performance;
//   down -> major_outage when every probed check is down (checks_down >= checks_probed), partial_outage when
//   some probed check still answers (one of several endpoints failing is a partial outage);
//   operational -> operational; no-data -> operational (Statuspage has no "unknown" status, and a new
//   Statuspage component starts operational; the snapshot keeps the honest `no-data`).
// checks_probed counts the component's checks with data (not no-data); checks_down those that are down.
StatuspageComponentStatus statuspage_component_status(ComponentStatus status, int checks_down,
                                                      int checks_probed);

// `operational`, `degraded_performance`, `partial_outage`, `major_outage`, `under_maintenance`.
std::string_view wire_name(StatuspageComponentStatus status);
// `none`, `minor`, `major`, `critical`.
std::string_view wire_name(StatuspageIndicator indicator);

// An incident impact (`minor`, `major`, `critical`, Statuspage's names too) as an indicator level.
// Errors: `invalid_impact`.
Result<StatuspageIndicator> parse_incident_impact(std::string_view impact);

struct StatuspagePageStatus {
  StatuspageIndicator indicator = StatuspageIndicator::none;
  std::string_view description;  // Statuspage's texts, English like Statuspage's API

  friend bool operator==(const StatuspagePageStatus&, const StatuspagePageStatus&) = default;
};

// The page's `status`: the worst of the components and the unresolved incidents' impacts.
//   Components: degraded_performance -> minor, partial_outage -> major, major_outage -> critical;
//   operational and under_maintenance -> none (planned work is not an outage).
//   Description by indicator: none "All Systems Operational", minor "Minor Service Outage", major "Partial
//   System Outage", critical "Major System Outage"; with indicator none and a component under maintenance,
//   "Service Under Maintenance" (Statuspage's texts for these levels).
StatuspagePageStatus statuspage_page_status(std::span<const StatuspageComponentStatus> components,
                                            std::span<const StatuspageIndicator> incident_impacts);

}  // namespace core::status
