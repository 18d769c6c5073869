#pragma once
// A component's status from its checks, and a page's overall status from its components (spec document 3,
// the Component rows of "States and transitions").

#include <span>

#include "core/status/status.h"

namespace core::status {

// The first matching rule wins:
//   an active maintenance window covers the component -> maintenance (it hides check results, as downtime
//   during maintenance does not count); any check down -> down; any degraded -> degraded; every check
//   no-data, or no checks at all -> no-data; otherwise (at least one operational, the rest operational or
//   no-data) -> operational.
ComponentStatus component_status(std::span<const CheckStatus> checks, bool in_maintenance);

// The page's `overall`: the worst component in the order down > degraded > maintenance > operational
// (a component under maintenance is planned, so it outranks only operational: Statuspage's
// "under maintenance" banner yields to an outage elsewhere). no-data components are ignored unless every
// component is no-data, or there are none: then no-data.
ComponentStatus overall_status(std::span<const ComponentStatus> components);

}  // namespace core::status
