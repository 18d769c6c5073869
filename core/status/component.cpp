#include "core/status/component.h"

namespace core::status {

ComponentStatus component_status(std::span<const CheckStatus> checks, bool in_maintenance) {
  if (in_maintenance) return ComponentStatus::maintenance;
  bool degraded = false;
  bool any_data = false;
  for (CheckStatus c : checks) {
    if (c == CheckStatus::down) return ComponentStatus::down;
    if (c == CheckStatus::degraded) degraded = true;
    if (c != CheckStatus::no_data) any_data = true;
  }
  if (degraded) return ComponentStatus::degraded;
  return any_data ? ComponentStatus::operational : ComponentStatus::no_data;
}

namespace {
// Higher is worse; no-data ranks below everything so any real status replaces it.
int severity(ComponentStatus s) {
  switch (s) {
    case ComponentStatus::no_data:
      return 0;
    case ComponentStatus::operational:
      return 1;
    case ComponentStatus::maintenance:
      return 2;
    case ComponentStatus::degraded:
      return 3;
    case ComponentStatus::down:
      break;
  }
  return 4;
}
}  // namespace

ComponentStatus overall_status(std::span<const ComponentStatus> components) {
  ComponentStatus worst = ComponentStatus::no_data;
  for (ComponentStatus c : components) {
    if (severity(c) > severity(worst)) worst = c;
  }
  return worst;
}

}  // namespace core::status
