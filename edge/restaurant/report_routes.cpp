// Reports (spec document 3, GET /reports and /reports/export; docs/restaurant-reports.md) and the
// restaurant entries of the audit log. Reading a report writes nothing; an export is recorded in the audit
// log before its CSV leaves the server.

#include "core/date.h"
#include "edge/app.h"
#include "edge/platform/audit_log.h"
#include "edge/restaurant/report_package.h"
#include "edge/restaurant/restaurant_common.h"

namespace edge::restaurant {
namespace {

json::object export_details(const ReportPackage& p) {
  const auto& q = p.request.query;
  json::array food;
  for (const auto& id : q.foodCategoryIds) food.emplace_back(id);
  return {{"from", core::format_day_key(q.from)},
          {"to", core::format_day_key(q.to)},
          {"basis", core::restaurant::report_basis_name(q.basis)},
          {"branchId", p.request.branchId ? json::value(*p.request.branchId) : json::value(nullptr)},
          {"topVendors", q.topVendors},
          {"foodCategoryIds", std::move(food)},
          {"format", "csv"}};
}

}  // namespace

void register_reports(App& app) {
  Router& r = app.router;
  r.add("GET", path("/reports"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto request = parse_report_request(app, req, ctx);
          if (!request) return rest_error(request.error());
          auto package = build_report_package(app, ctx, std::move(*request));
          if (!package) return rest_error(package.error());
          return rest_ok(report_json(*package));
        }));

  r.add("GET", path("/reports/export"),
        restaurant_route(app, "restaurant.view", [&app](Request& req, const CompanyContext& ctx) {
          auto request = parse_report_request(app, req, ctx);
          if (!request) return rest_error(request.error());
          auto package = build_report_package(app, ctx, std::move(*request));
          if (!package) return rest_error(package.error());
          auto audited = record_audit(app, ctx, {"restaurant.report.export", export_details(*package)});
          if (!audited.ok()) return rest_error(audited.error());
          Response out;
          out.status = 200;
          out.body = report_csv(*package);
          out.content_type = "text/csv; charset=utf-8";
          const auto& q = package->request.query;
          out.set_header("Content-Disposition", "attachment; filename=\"report-" +
                                                    core::format_day_key(q.from) + "-" +
                                                    core::format_day_key(q.to) + ".csv\"");
          return out;
        }));

  // The company's restaurant audit entries, newest first; managers only.
  r.add("GET", path("/audit-log"),
        restaurant_route(app, "restaurant.manage", [&app](Request& req, const CompanyContext& ctx) {
          auto entries = list_audit(app, ctx.company.id, "restaurant.");
          if (!entries) return rest_error(entries.error());
          return paged(req, *entries);
        }));
}

}  // namespace edge::restaurant
