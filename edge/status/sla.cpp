#include "edge/status/sla.h"

#include <cstdio>

#include "core/date.h"
#include "core/restaurant/csv.h"
#include "core/status/uptime.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/rollup.h"
#include "edge/status/snapshot.h"
#include "edge/status/status_http.h"
#include "edge/status/status_routes.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;
namespace json = core::json;

// Milliseconds as minutes with two decimals, rounded down.
double minutes(std::int64_t ms) {
  return static_cast<double>(ms / 600) / 100.0;
}

json::value percent(const std::optional<int>& basis_points) {
  if (!basis_points) return nullptr;
  return static_cast<double>(*basis_points) / 100.0;
}

// A JSON number of the report as CSV text: two decimals, empty for null.
std::string fixed2(const json::value& v) {
  if (v.is_null()) return "";
  char out[48];
  std::snprintf(out, sizeof out, "%.2f", v.to_number<double>());
  return out;
}

}  // namespace

core::Result<SlaReport> build_sla_report(App& app, std::string_view company_id, json::object page,
                                         const cs::SlaPeriod& period, std::int64_t now_ms) {
  const std::string page_id = record::str(page, "id");
  const std::int64_t first_day = core::days_from_civil(period.from);
  const std::int64_t last_day = core::days_from_civil(period.to);
  auto components = list_components(app, company_id, page_id);
  if (!components) return components.error();
  json::array rows;
  for (auto& component : *components) {
    const std::vector<cs::TimeRange> maintenance = component_maintenance(app, company_id, page_id, component);
    const std::vector<std::int64_t> exact = cs::maintenance_days(maintenance, first_day, last_day);
    auto checks = list_checks(app, company_id, page_id, record::str(component, "id"));
    if (!checks) return checks.error();
    std::vector<cs::CheckTime> times;
    for (auto& check : *checks) {
      auto summary = check_summary(app, record::str(check, "id"));
      if (!summary) return summary.error();
      auto time = load_check_time(app, check, *summary, first_day, exact, now_ms);
      if (!time) return time.error();
      times.push_back(std::move(*time));
    }
    std::vector<cs::StateTime> days;
    for (std::int64_t d = first_day; d <= last_day; ++d)
      days.push_back(
          cs::component_time(times, maintenance, d * cs::kDayMs, std::min((d + 1) * cs::kDayMs, now_ms)));
    const cs::SlaFigures f = cs::sla_figures(period, days);
    rows.emplace_back(json::object{
        {"id", record::str(component, "id")},
        {"name", record::str(component, "name")},
        {"checks", static_cast<std::int64_t>(checks->size())},
        {"uptime", percent(f.uptime)},
        {"upMinutes", minutes(f.total.upMs())},
        {"degradedMinutes", minutes(f.total.degradedMs)},
        {"downMinutes", minutes(f.total.downMs)},
        {"maintenanceMinutes", minutes(f.total.maintenanceMs)},
        {"unknownMinutes", minutes(f.total.unknownMs)},
        {"worstDay", f.worstDay ? json::value(json::object{{"date", core::format_day_key(*f.worstDay)},
                                                           {"uptime", percent(f.worstDayUptime)}})
                                : json::value(nullptr)}});
  }
  SlaReport report{std::move(page), period, {}};
  report.json = json::object{{"pageId", page_id},
                             {"from", core::format_day_key(period.from)},
                             {"to", core::format_day_key(period.to)},
                             {"generatedAt", core::format_timestamp(now_ms)},
                             {"components", std::move(rows)}};
  return report;
}

std::string sla_csv(const SlaReport& report) {
  using core::restaurant::csv_field;
  using core::restaurant::csv_text_field;
  std::string out =
      "component_id,component_name,checks,uptime_percent,up_minutes,degraded_minutes,down_minutes,"
      "maintenance_minutes,unknown_minutes,worst_day,worst_day_uptime_percent\r\n";
  for (const json::value& row : report.json.at("components").as_array()) {
    const json::object& r = row.as_object();
    const json::value& worst = r.at("worstDay");
    out += csv_field(record::str(r, "id")) + "," + csv_text_field(record::str(r, "name")) + "," +
           std::to_string(record::num(r, "checks")) + "," + fixed2(r.at("uptime")) + "," +
           fixed2(r.at("upMinutes")) + "," + fixed2(r.at("degradedMinutes")) + "," +
           fixed2(r.at("downMinutes")) + "," + fixed2(r.at("maintenanceMinutes")) + "," +
           fixed2(r.at("unknownMinutes")) + "," +
           (worst.is_null() ? std::string(",")
                            : csv_field(record::str(worst.as_object(), "date")) + "," +
                                  fixed2(worst.as_object().at("uptime"))) +
           "\r\n";
  }
  return out;
}

void register_sla_routes(App& app) {
  for (bool csv_suffix : {false, true}) {
    app.router.add(
        "GET", dashboard_path(csv_suffix ? "/pages/{pageId}/sla.csv" : "/pages/{pageId}/sla"),
        dashboard_route(app, "status.view", [&app, csv_suffix](Request& req, const CompanyContext& ctx) {
          auto page = load_page(app, ctx, req.param("pageId"));
          if (!page) return status_error(page.error());
          auto format = req.query_param("format");
          if (format && *format != "json" && *format != "csv")
            return status_error(422, "invalid_format", "query parameter 'format' must be json or csv");
          if (csv_suffix && format && *format != "csv")
            return status_error(422, "invalid_format", "the .csv route answers CSV only");
          const bool csv = csv_suffix || (format && *format == "csv");
          const std::int64_t now = app.clock.now_ms();
          auto from = req.query_param("from");
          auto to = req.query_param("to");
          auto period = cs::parse_sla_period(from ? std::optional<std::string_view>(*from) : std::nullopt,
                                             to ? std::optional<std::string_view>(*to) : std::nullopt,
                                             core::civil_from_unix_ms(now).date);
          if (!period) return status_error(period.error());
          const std::string slug = record::str(*page, "slug");
          auto report = build_sla_report(app, ctx.company.id, std::move(*page), *period, now);
          if (!report) return status_error(report.error());
          if (!csv) return status_ok(std::move(report->json));
          Response out;
          out.status = 200;
          out.body = sla_csv(*report);
          out.content_type = "text/csv; charset=utf-8";
          out.set_header("Content-Disposition", "attachment; filename=\"sla-" + slug + "-" +
                                                    core::format_day_key(period->from) + "-" +
                                                    core::format_day_key(period->to) + ".csv\"");
          return out;
        }));
  }
}

}  // namespace edge::status
