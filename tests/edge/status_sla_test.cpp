// The SLA report {status_url}/api/v1/dashboard/companies/{slug}/pages/{pageId}/sla (docs/status-api.md,
// "SLA report"): a constructed October, exact in JSON and CSV, and every refusal.

#include <doctest/doctest.h>

#include "core/date.h"
#include "status_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;

namespace {

constexpr std::int64_t kHour = 3'600'000;

std::int64_t at(core::CivilDate d, int hour) {
  return core::days_from_civil(d) * 24 * kHour + hour * kHour;
}

// acme-status: API with one hourly check (timeout 10 s: each result vouches for 60 min 15 s), probed
// every hour of October 2026 except 06:00-11:00 on the 20th (the edge was down); down at 10:00 and 11:00
// on the 5th, degraded at 03:00 on the 10th. `Web, "beta"` has no check.
struct October {
  October() {
    page = edge.page();
    api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    web = edge.create("/pages/" + page + "/components", R"({"name":"Web, \"beta\""})");
    check =
        edge.create("/pages/" + page + "/components/" + api + "/checks",
                    R"({"name":"H","url":"https://acme.test/","intervalSeconds":3600,"timeoutMs":10000})");
    for (unsigned day = 1; day <= 31; ++day)
      for (int hour = 0; hour < 24; ++hour) {
        if (day == 20 && hour >= 6 && hour < 12) continue;
        ProbeStatus s = ProbeStatus::operational;
        if (day == 5 && (hour == 10 || hour == 11)) s = ProbeStatus::down;
        if (day == 10 && hour == 3) s = ProbeStatus::degraded;
        edge.result(check, at({2026, 10, day}, hour), s);
      }
  }
  std::string sla(const std::string& query) { return kDash + "/pages/" + page + "/sla" + query; }
  StatusEdge edge;
  std::string page, api, web, check;
};

}  // namespace

TEST_SUITE("status_sla") {
  TEST_CASE("the SLA report of a constructed month, exact in JSON and CSV") {
    October o;
    auto r = o.edge.get(o.sla("?from=2026-10-01&to=2026-10-31"), o.edge.token);
    REQUIRE(r.status == 200);
    // 44,640 minutes in October: 120 down (two hourly results), 60 degraded (one), 359.75 unknown (the
    // 05:00 result on the 20th vouches until 06:00:15, the next is at 12:00), the rest operational.
    // Uptime 44,160.25 / 44,280.25 = 99.72 % (rounded down); the worst day is the 5th: 22 h / 24 h.
    json::object expected{
        {"pageId", o.page},
        {"from", "2026-10-01"},
        {"to", "2026-10-31"},
        {"generatedAt", "2026-11-18T11:06:40.000Z"},
        {"components",
         json::array{json::object{{"id", o.api},
                                  {"name", "API"},
                                  {"checks", 1},
                                  {"uptime", 99.72},
                                  {"upMinutes", 44160.25},
                                  {"degradedMinutes", 60.0},
                                  {"downMinutes", 120.0},
                                  {"maintenanceMinutes", 0.0},
                                  {"unknownMinutes", 359.75},
                                  {"worstDay", json::object{{"date", "2026-10-05"}, {"uptime", 91.66}}}},
                     json::object{{"id", o.web},
                                  {"name", "Web, \"beta\""},
                                  {"checks", 0},
                                  {"uptime", nullptr},
                                  {"upMinutes", 0.0},
                                  {"degradedMinutes", 0.0},
                                  {"downMinutes", 0.0},
                                  {"maintenanceMinutes", 0.0},
                                  {"unknownMinutes", 0.0},
                                  {"worstDay", nullptr}}}}};
    CHECK(r.json == json::value(expected));

    const std::string csv =
        "component_id,component_name,checks,uptime_percent,up_minutes,degraded_minutes,down_minutes,"
        "maintenance_minutes,unknown_minutes,worst_day,worst_day_uptime_percent\r\n" +
        o.api + ",API,1,99.72,44160.25,60.00,120.00,0.00,359.75,2026-10-05,91.66\r\n" + o.web +
        ",\"Web, \"\"beta\"\"\",0,,0.00,0.00,0.00,0.00,0.00,,\r\n";
    for (const std::string& path :
         {o.sla("?from=2026-10-01&to=2026-10-31&format=csv"), o.sla(".csv?from=2026-10-01&to=2026-10-31"),
          o.sla(".csv?from=2026-10-01&to=2026-10-31&format=csv")}) {
      auto c = o.edge.get(path, o.edge.token);
      INFO(path);
      REQUIRE(c.status == 200);
      CHECK(c.body == csv);
      CHECK(c.header("Content-Type") == "text/csv; charset=utf-8");
      CHECK(c.header("Content-Disposition") ==
            "attachment; filename=\"sla-acme-status-2026-10-01-2026-10-31.csv\"");
    }

    // A day before the first result adds nothing, not even unknown time: the check did not exist yet.
    auto wider = o.edge.get(o.sla("?from=2026-09-30&to=2026-10-31"), o.edge.token);
    CHECK(wider.json.at("components").at(0).at("unknownMinutes") == 359.75);
    CHECK(wider.json.at("components").at(0).at("upMinutes") == 44160.25);
    // One day: the 20th alone. 18 h 0 min 15 s operational (00:00-06:00:15 and 12:00-24:00), the rest
    // unknown; nothing down, so 100 %.
    auto day = o.edge.get(o.sla("?from=2026-10-20&to=2026-10-20"), o.edge.token);
    CHECK(day.json.at("components").at(0) ==
          json::value(json::object{{"id", o.api},
                                   {"name", "API"},
                                   {"checks", 1},
                                   {"uptime", 100.0},
                                   {"upMinutes", 1080.25},
                                   {"degradedMinutes", 0.0},
                                   {"downMinutes", 0.0},
                                   {"maintenanceMinutes", 0.0},
                                   {"unknownMinutes", 359.75},
                                   {"worstDay", json::object{{"date", "2026-10-20"}, {"uptime", 100.0}}}}));
    // Up to today: November is unknown after the last result's cover ran out (1 Nov 00:00:15), up to
    // now (18 Nov 11:06:40): 17 days 11 h 6 min 25 s.
    auto november = o.edge.get(o.sla("?from=2026-11-01&to=2026-11-18"), o.edge.token);
    CHECK(november.json.at("components").at(0).at("unknownMinutes") == 25146.41);
    CHECK(november.json.at("components").at(0).at("upMinutes") == 0.25);
    // A viewer may read it.
    CHECK(o.edge.get(o.sla("?from=2026-10-01&to=2026-10-31"), o.edge.token_with("acme", {"status.view"}))
              .status == 200);
  }

  TEST_CASE("bad periods, formats, permissions and pages are refused with clear errors") {
    October o;
    auto refused = [&](const std::string& query, int status, const std::string& code,
                       const std::string& message) {
      auto r = o.edge.get(o.sla(query), o.edge.token);
      INFO(query << " " << r.body);
      CHECK(r.status == status);
      CHECK(r.json == json::value(json::object{{"error", code}, {"message", message}}));
    };
    refused("", 422, "invalid_period", "query parameter 'from' is required (YYYY-MM-DD)");
    refused("?from=2026-10-01", 422, "invalid_period", "query parameter 'to' is required (YYYY-MM-DD)");
    refused("?from=2026-10-32&to=2026-11-01", 422, "invalid_period",
            "query parameter 'from' must be a date YYYY-MM-DD");
    refused("?from=2026-10-02&to=2026-10-01", 422, "invalid_period", "'from' must not be after 'to'");
    refused("?from=2026-10-01&to=2026-11-19", 422, "invalid_period",
            "'to' must not be after today (2026-11-18, UTC)");
    refused("?from=2025-11-17&to=2026-11-18", 422, "invalid_period", "the period is at most 366 days");
    refused("?from=2026-10-01&to=2026-10-31&format=xml", 422, "invalid_format",
            "query parameter 'format' must be json or csv");
    refused(".csv?from=2026-10-01&to=2026-10-31&format=json", 422, "invalid_format",
            "the .csv route answers CSV only");
    // 366 days is accepted.
    CHECK(o.edge.get(o.sla("?from=2025-11-18&to=2026-11-18"), o.edge.token).status == 200);
    // No status permission: 403; another company's page: 404, as if it did not exist.
    auto forbidden = o.edge.get(o.sla("?from=2026-10-01&to=2026-10-31"), o.edge.token_with("acme", {}));
    CHECK(forbidden.status == 403);
    CHECK(forbidden.json.at("error") == "forbidden");
    auto other = o.edge.get(
        "/api/v1/dashboard/companies/globex/pages/" + o.page + "/sla?from=2026-10-01&to=2026-10-31",
        o.edge.token_with("globex", {"status.view"}));
    CHECK(other.status == 404);
    CHECK(other.json.at("error") == "page_not_found");
  }
}
