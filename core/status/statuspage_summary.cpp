#include "core/status/statuspage_summary.h"

#include <algorithm>

namespace core::status {

StatuspageComponentStatus statuspage_component_status(ComponentStatus status, int checks_down,
                                                      int checks_probed) {
  switch (status) {
    case ComponentStatus::maintenance:
      return StatuspageComponentStatus::under_maintenance;
    case ComponentStatus::degraded:
      return StatuspageComponentStatus::degraded_performance;
    case ComponentStatus::down:
      return checks_down >= checks_probed ? StatuspageComponentStatus::major_outage
                                          : StatuspageComponentStatus::partial_outage;
    case ComponentStatus::operational:
    case ComponentStatus::no_data:
      break;
  }
  return StatuspageComponentStatus::operational;
}

std::string_view wire_name(StatuspageComponentStatus status) {
  switch (status) {
    case StatuspageComponentStatus::operational:
      return "operational";
    case StatuspageComponentStatus::degraded_performance:
      return "degraded_performance";
    case StatuspageComponentStatus::partial_outage:
      return "partial_outage";
    case StatuspageComponentStatus::major_outage:
      return "major_outage";
    case StatuspageComponentStatus::under_maintenance:
      return "under_maintenance";
  }
  return "operational";
}

std::string_view wire_name(StatuspageIndicator indicator) {
  switch (indicator) {
    case StatuspageIndicator::none:
      return "none";
    case StatuspageIndicator::minor:
      return "minor";
    case StatuspageIndicator::major:
      return "major";
    case StatuspageIndicator::critical:
      return "critical";
  }
  return "none";
}

Result<StatuspageIndicator> parse_incident_impact(std::string_view impact) {
  if (impact == "minor") return StatuspageIndicator::minor;
  if (impact == "major") return StatuspageIndicator::major;
  if (impact == "critical") return StatuspageIndicator::critical;
  return make_error("invalid_impact", "impact must be one of minor, major, critical");
}

namespace {

StatuspageIndicator indicator_of(StatuspageComponentStatus status) {
  switch (status) {
    case StatuspageComponentStatus::degraded_performance:
      return StatuspageIndicator::minor;
    case StatuspageComponentStatus::partial_outage:
      return StatuspageIndicator::major;
    case StatuspageComponentStatus::major_outage:
      return StatuspageIndicator::critical;
    case StatuspageComponentStatus::operational:
    case StatuspageComponentStatus::under_maintenance:
      break;
  }
  return StatuspageIndicator::none;
}

}  // namespace

StatuspagePageStatus statuspage_page_status(std::span<const StatuspageComponentStatus> components,
                                            std::span<const StatuspageIndicator> incident_impacts) {
  StatuspageIndicator worst = StatuspageIndicator::none;
  bool maintenance = false;
  for (StatuspageComponentStatus c : components) {
    worst = std::max(worst, indicator_of(c));
    if (c == StatuspageComponentStatus::under_maintenance) maintenance = true;
  }
  for (StatuspageIndicator i : incident_impacts) worst = std::max(worst, i);
  switch (worst) {
    case StatuspageIndicator::none:
      return {worst, maintenance ? "Service Under Maintenance" : "All Systems Operational"};
    case StatuspageIndicator::minor:
      return {worst, "Minor Service Outage"};
    case StatuspageIndicator::major:
      return {worst, "Partial System Outage"};
    case StatuspageIndicator::critical:
      return {worst, "Major System Outage"};
  }
  return {worst, "All Systems Operational"};
}

}  // namespace core::status
