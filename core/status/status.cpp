#include "core/status/status.h"

#include <string>

namespace core::status {

CheckStatus to_check_status(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::operational:
      return CheckStatus::operational;
    case ProbeStatus::degraded:
      return CheckStatus::degraded;
    case ProbeStatus::down:
      break;
  }
  return CheckStatus::down;
}

std::string_view wire_name(ProbeStatus status) {
  return wire_name(to_check_status(status));
}

std::string_view wire_name(CheckStatus status) {
  switch (status) {
    case CheckStatus::operational:
      return "operational";
    case CheckStatus::degraded:
      return "degraded";
    case CheckStatus::down:
      return "down";
    case CheckStatus::no_data:
      break;
  }
  return "no-data";
}

std::string_view wire_name(ComponentStatus status) {
  switch (status) {
    case ComponentStatus::operational:
      return "operational";
    case ComponentStatus::degraded:
      return "degraded";
    case ComponentStatus::down:
      return "down";
    case ComponentStatus::maintenance:
      return "maintenance";
    case ComponentStatus::no_data:
      break;
  }
  return "no-data";
}

Result<CheckStatus> parse_check_status(std::string_view text) {
  for (auto s : {CheckStatus::operational, CheckStatus::degraded, CheckStatus::down, CheckStatus::no_data}) {
    if (wire_name(s) == text) return s;
  }
  return make_error("invalid_status", "unknown check status");
}

Result<ComponentStatus> parse_component_status(std::string_view text) {
  for (auto s : {ComponentStatus::operational, ComponentStatus::degraded, ComponentStatus::down,
                 ComponentStatus::maintenance, ComponentStatus::no_data}) {
    if (wire_name(s) == text) return s;
  }
  return make_error("invalid_status", "unknown component status");
}

}  // namespace core::status
