#pragma once
// The report package (spec document 3, GET /reports and /reports/export; docs/restaurant-reports.md): the
// records of a company read from the store, filtered to the branches the caller may see, aggregated by
// core::restaurant::build_report, and rendered as JSON or as CSV with the names of branches, categories and
// vendors beside their ids.

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/restaurant/report.h"
#include "core/result.h"
#include "edge/http/message.h"
#include "edge/platform/company_auth.h"

namespace edge::restaurant {

struct ReportRequest {
  core::restaurant::ReportQuery query;
  std::optional<std::string> branchId;  // nullopt: every branch the caller may see
};

// Reads from, to (required day keys), basis (default accrual), branchId, topVendors (0..100, default 5)
// and foodCategoryIds (comma-separated) from the query string.
// Errors: `missing_field`, `invalid_date`, `invalid_field`, `invalid_range` (from after to),
// `branch_not_found` (unknown or invisible branchId).
core::Result<ReportRequest> parse_report_request(App& app, const Request& req, const CompanyContext& ctx);

struct ReportPackage {
  ReportRequest request;
  core::restaurant::Report report;
  // id -> name of the branches, categories and vendors the company has (deleted ones keep their id only).
  std::vector<std::pair<std::string, std::string>> names;
};

core::Result<ReportPackage> build_report_package(App& app, const CompanyContext& ctx, ReportRequest request);

core::json::object report_json(const ReportPackage& package);

// The figures of a report or the overview: costs `{grossMinor, netMinor, vatMinor, costMinor}` and income
// `{grossMinor, commissionMinor, netMinor}` (spec/DECISIONS.md).
core::json::object costs_json(const core::restaurant::CostTotals& costs);
core::json::object income_totals_json(const core::restaurant::IncomeTotals& income);

// One CSV (RFC 4180, CRLF) with a `section` column: `month`, `total`, `branch`, `category`, `vendor`,
// `topVendor` rows of the same figures as the JSON, and one `foodCost` row.
std::string report_csv(const ReportPackage& package);

}  // namespace edge::restaurant
