#pragma once
// The status values of the status-page service (spec document 3, "States and transitions") and their wire
// names. A probe yields one of three values; a check that was never probed has `no-data`; a component or
// a page can also be under `maintenance`.

#include <string_view>

#include "core/result.h"

namespace core::status {

// The verdict of one probe (core/status/probe.h).
enum class ProbeStatus { operational, degraded, down };

// A check's latest status: its last probe's verdict, or no_data before the first probe.
enum class CheckStatus { operational, degraded, down, no_data };

// A component's or a page's status; also a day's status in dailyHistory.
enum class ComponentStatus { operational, degraded, down, maintenance, no_data };

CheckStatus to_check_status(ProbeStatus status);

// Wire names as the spec writes them: `operational`, `degraded`, `down`, `maintenance`, `no-data`.
std::string_view wire_name(ProbeStatus status);
std::string_view wire_name(CheckStatus status);
std::string_view wire_name(ComponentStatus status);

// Exact wire names only (no case folding, no `no_data`). Errors: `invalid_status`.
Result<CheckStatus> parse_check_status(std::string_view text);
Result<ComponentStatus> parse_component_status(std::string_view text);

}  // namespace core::status
