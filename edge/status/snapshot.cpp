#include "edge/status/snapshot.h"

#include <algorithm>

#include "core/date.h"
#include "core/status/component.h"
#include "core/status/statuspage_summary.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/maintenance_store.h"
#include "edge/status/rollup.h"
#include "edge/status/snapshot_incidents.h"
#include "edge/status/status_routes.h"

namespace edge::status {
namespace {

namespace cs = core::status;

cs::CheckStatus check_status(const CheckData& c) {
  if (!c.summary) return cs::CheckStatus::no_data;
  return cs::parse_check_status(record::str(*c.summary, "status")).value_or(cs::CheckStatus::no_data);
}

std::optional<std::int64_t> last_checked_ms(const CheckData& c) {
  if (!c.summary) return std::nullopt;
  return record::opt_num(*c.summary, "lastCheckedAtMs");
}

std::optional<std::int64_t> last_checked_ms(const ComponentData& c) {
  std::optional<std::int64_t> latest;
  for (auto& check : c.checks)
    if (auto at = last_checked_ms(check); at && (!latest || *at > *latest)) latest = at;
  return latest;
}

json::value uptime_json(const std::optional<int>& basis_points) {
  if (!basis_points) return nullptr;
  return static_cast<double>(*basis_points) / 100.0;
}

struct ComponentState {
  cs::ComponentStatus status = cs::ComponentStatus::no_data;
  int checksDown = 0, checksProbed = 0;
};

ComponentState component_state(const ComponentData& c) {
  ComponentState s;
  std::vector<cs::CheckStatus> statuses;
  for (auto& check : c.checks) {
    statuses.push_back(check_status(check));
    if (statuses.back() != cs::CheckStatus::no_data) ++s.checksProbed;
    if (statuses.back() == cs::CheckStatus::down) ++s.checksDown;
  }
  s.status = cs::component_status(statuses, c.inMaintenance);
  return s;
}

}  // namespace

std::vector<cs::TimeRange> component_maintenance(App& app, std::string_view company_id,
                                                 std::string_view page_id, const json::object& component) {
  auto windows = list_records(app, maintenance_prefix(company_id, page_id));
  if (!windows) return {};  // the caller's next read of the store reports the failure
  return component_maintenance_of(*windows, record::str(component, "id"), 0).intervals;
}

core::Result<PageData> load_page_data(App& app, PublicPage page, std::int64_t now_ms, TimeSource source) {
  PageData data{std::move(page.companyId), std::move(page.page), {}};
  std::string page_id = record::str(data.page, "id");
  auto components = list_components(app, data.companyId, page_id);
  if (!components) return components.error();
  auto windows = list_records(app, maintenance_prefix(data.companyId, page_id));
  if (!windows) return windows.error();
  data.maintenances = std::move(*windows);
  const std::int64_t first_day = cs::history_first_day(now_ms);
  for (auto& component : *components) {
    ComponentData cd{std::move(component), {}, {}};
    auto maintenance = component_maintenance_of(data.maintenances, record::str(cd.component, "id"), now_ms);
    cd.maintenance = std::move(maintenance.intervals);
    cd.inMaintenance = maintenance.inProgress;
    const std::vector<std::int64_t> exact = cs::exact_days(now_ms, cd.maintenance, first_day);
    auto checks = list_checks(app, data.companyId, page_id, record::str(cd.component, "id"));
    if (!checks) return checks.error();
    for (auto& check : *checks) {
      CheckData chk{std::move(check), std::nullopt, {}};
      auto summary = check_summary(app, record::str(chk.check, "id"));
      if (!summary) return summary.error();
      chk.summary = std::move(*summary);
      auto time = source == TimeSource::raw
                      ? load_check_time_raw(app, chk.check, chk.summary, first_day, now_ms)
                      : load_check_time(app, chk.check, chk.summary, first_day, exact, now_ms);
      if (!time) return time.error();
      chk.time = std::move(*time);
      cd.checks.push_back(std::move(chk));
    }
    data.components.push_back(std::move(cd));
  }
  CORE_TRY(load_page_incidents(app, data, now_ms));
  return data;
}

json::object snapshot_json(const PageData& data, std::int64_t now_ms, Lang lang) {
  json::array components;
  std::vector<cs::ComponentStatus> statuses;
  for (auto& c : data.components) {
    std::vector<cs::CheckTime> times;  // the component's checks' time, summed by the core
    json::array checks;
    for (auto& check : c.checks) {
      times.push_back(check.time);
      checks.emplace_back(json::object{
          {"id", record::str(check.check, "id")},
          {"name", record::str(check.check, "name")},
          {"status", cs::wire_name(check_status(check))},
          {"lastLatencyMs",
           check.summary ? json::value(record::num(*check.summary, "lastLatencyMs")) : json::value(nullptr)},
          {"lastCheckedAt", record::time_or_null(last_checked_ms(check))}});
    }
    const cs::ComponentStatus status = component_state(c).status;
    statuses.push_back(status);
    const cs::ComponentFigures figures = cs::component_figures(times, c.maintenance, now_ms, status);
    json::array history;
    for (auto& day : figures.dailyHistory)
      history.emplace_back(
          json::object{{"date", core::format_day_key(day.date)}, {"status", cs::wire_name(day.status)}});
    components.emplace_back(json::object{{"id", record::str(c.component, "id")},
                                         {"name", record::str(c.component, "name")},
                                         {"status", cs::wire_name(status)},
                                         {"uptime24h", uptime_json(figures.uptime24h)},
                                         {"uptime30d", uptime_json(figures.uptime30d)},
                                         {"lastCheckedAt", record::time_or_null(last_checked_ms(c))},
                                         {"dailyHistory", std::move(history)},
                                         {"checks", std::move(checks)}});
  }
  const json::object& page = data.page;
  return json::object{
      {"page",
       json::object{
           {"name", record::str(page, "name")},
           {"slug", record::str(page, "slug")},
           {"branding", page.contains("branding") ? page.at("branding") : json::value(json::object{})},
           {"customDomain", page.contains("customDomain") ? page.at("customDomain") : json::value()},
           {"subscribersEnabled", record::boolean(page, "subscribersEnabled")}}},
      {"overall", cs::wire_name(cs::overall_status(statuses))},
      {"components", std::move(components)},
      {"activeIncidents", active_incidents_json(data, lang)},
      {"upcomingMaintenances", upcoming_maintenances_json(data, now_ms, lang)},
      {"pastIncidents", past_incidents_json(data, now_ms, lang)},
      {"generatedAt", core::format_timestamp(now_ms)},
      {"windowHours", cs::kUptime24hMs / (60 * 60 * 1000)}};
}

json::object statuspage_summary_json(const PageData& data, std::string_view page_url) {
  const json::object& page = data.page;
  const std::string page_id = record::str(page, "id");
  std::int64_t page_updated = core::parse_timestamp(record::str(page, "updatedAt")).value_or(0);
  json::array components;
  std::vector<cs::StatuspageComponentStatus> statuses;
  std::int64_t position = 1;
  for (auto& c : data.components) {
    ComponentState state = component_state(c);
    auto status = cs::statuspage_component_status(state.status, state.checksDown, state.checksProbed);
    statuses.push_back(status);
    // A component changes when it is edited and when a probe reports on it.
    std::int64_t updated = core::parse_timestamp(record::str(c.component, "updatedAt")).value_or(0);
    if (auto at = last_checked_ms(c)) updated = std::max(updated, *at);
    page_updated = std::max(page_updated, updated);
    components.emplace_back(json::object{{"id", record::str(c.component, "id")},
                                         {"name", record::str(c.component, "name")},
                                         {"status", cs::wire_name(status)},
                                         {"created_at", record::str(c.component, "createdAt")},
                                         {"updated_at", core::format_timestamp(updated)},
                                         {"position", position++},
                                         {"description", nullptr},
                                         {"showcase", true},
                                         {"start_date", nullptr},
                                         {"group_id", nullptr},
                                         {"page_id", page_id},
                                         {"group", false},
                                         {"only_show_if_degraded", false}});
  }
  auto status = cs::statuspage_page_status(statuses, unresolved_impacts(data));
  json::array incidents = summary_incidents_json(data, components, page_url);
  json::array maintenances = summary_maintenances_json(data, components, page_url);
  std::string name;
  if (auto* b = page.if_contains("branding"); b && b->is_object())
    name = record::str(b->get_object(), "displayName");
  if (name.empty()) name = record::str(page, "name");
  return json::object{{"page", json::object{{"id", page_id},
                                            {"name", name},
                                            {"url", page_url},
                                            {"time_zone", "Etc/UTC"},
                                            {"updated_at", core::format_timestamp(page_updated)}}},
                      {"status", json::object{{"indicator", cs::wire_name(status.indicator)},
                                              {"description", status.description}}},
                      {"components", std::move(components)},
                      {"incidents", std::move(incidents)},
                      {"scheduled_maintenances", std::move(maintenances)}};
}

}  // namespace edge::status
