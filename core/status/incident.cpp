#include "core/status/incident.h"

namespace core::status {

std::string_view wire_name(IncidentStatus status) {
  switch (status) {
    case IncidentStatus::investigating:
      return "investigating";
    case IncidentStatus::identified:
      return "identified";
    case IncidentStatus::monitoring:
      return "monitoring";
    case IncidentStatus::resolved:
      break;
  }
  return "resolved";
}

Result<IncidentStatus> parse_incident_status(std::string_view text) {
  for (IncidentStatus s : {IncidentStatus::investigating, IncidentStatus::identified,
                           IncidentStatus::monitoring, IncidentStatus::resolved})
    if (text == wire_name(s)) return s;
  return make_error("invalid_incident_status",
                    "status must be one of investigating, identified, monitoring, resolved");
}

Status check_incident_update(IncidentStatus current, IncidentStatus next) {
  if (current == IncidentStatus::resolved)
    return make_error("incident_resolved", "the incident is resolved; a resolved incident takes no updates");
  if (static_cast<int>(next) < static_cast<int>(current))
    return make_error("invalid_incident_transition", "an incident cannot go back from " +
                                                         std::string(wire_name(current)) + " to " +
                                                         std::string(wire_name(next)));
  return {};
}

}  // namespace core::status
