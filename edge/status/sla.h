#pragma once
// The SLA report of a status page (docs/status-api.md, "SLA report"):
//   GET {status_url}/api/v1/dashboard/companies/{slug}/pages/{pageId}/sla?from=YYYY-MM-DD&to=YYYY-MM-DD
//       [&format=json|csv], or .../sla.csv?from=..&to=..   (status.view)
// Per component over the UTC days [from, to]: uptime, up/degraded/down/maintenance/unknown minutes and
// the worst day, from the per-day rollups (edge/status/rollup.h) and the core rules (core/status/sla.h).

#include <cstdint>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "core/status/sla.h"

namespace edge {
struct App;
}

namespace edge::status {

struct SlaReport {
  core::json::object page;
  core::status::SlaPeriod period;
  core::json::object json;  // the JSON body
};

// The report of a page of `company_id` at now_ms. Errors: the store's.
core::Result<SlaReport> build_sla_report(App& app, std::string_view company_id, core::json::object page,
                                         const core::status::SlaPeriod& period, std::int64_t now_ms);

// The report as CSV (RFC 4180, CRLF line ends, a header row, one row per component).
std::string sla_csv(const SlaReport& report);

void register_sla_routes(App& app);

}  // namespace edge::status
