#pragma once
// Incident statuses and how a timeline update may move them (spec document 3, the Incident rows of
// "States and transitions": investigating -> identified -> monitoring -> resolved).

#include <string_view>

#include "core/result.h"

namespace core::status {

// In timeline order; resolved is final.
enum class IncidentStatus { investigating, identified, monitoring, resolved };

// `investigating`, `identified`, `monitoring`, `resolved` (also Statuspage's incident status names).
std::string_view wire_name(IncidentStatus status);

// Exact wire names only. Errors: `invalid_incident_status`.
Result<IncidentStatus> parse_incident_status(std::string_view text);

// Whether an update with status `next` may follow the incident's current status `current`:
//   - current resolved: `incident_resolved` (a resolved incident is closed; open a new one instead);
//   - next before current in the order above: `invalid_incident_transition` (a timeline never goes back);
//   - otherwise allowed: the same status (a further update while still investigating, as on Statuspage)
//     and skipping forward (investigating -> resolved for a quick fix; the spec's table names the usual
//     steps, and Statuspage, the anchor, lets any later status follow).
Status check_incident_update(IncidentStatus current, IncidentStatus next);

}  // namespace core::status
