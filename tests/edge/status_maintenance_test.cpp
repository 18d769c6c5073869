// Maintenance windows through the dashboard API and the maintenance ticker (docs/status-incidents.md):
// every Maintenance row of the spec's States table with the manual clock, each notification exactly once
// in the outbox, validation that changes nothing, other companies' 404, and what the snapshot and summary
// show (component `maintenance`, upcomingMaintenances, downtime in maintenance not counted).

#include <doctest/doctest.h>

#include "status_incidents_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;

namespace {

constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kHour = 60 * kMinute;

std::string iso(std::int64_t ms) {
  return core::format_timestamp(ms);
}

// A window on API from now + start_h hours to now + end_h hours.
std::string window_body(IncidentPage& p, std::int64_t start_h, std::int64_t end_h) {
  return R"({"title":{"tr":"Veritabanı bakımı","en":"Database upgrade"},"description":{"tr":"Kısa kesinti","en":"Short downtime"},"scheduledStart":")" +
         iso(p.now() + start_h * kHour) + R"(","end":")" + iso(p.now() + end_h * kHour) +
         R"(","affectedComponentIds":[")" + p.api + R"("]})";
}

std::vector<std::string> event_names(IncidentPage& p) {
  std::vector<std::string> out;
  for (auto& e : p.events()) out.emplace_back(e.at("event").as_string());
  return out;
}

json::object component(const json::value& snapshot, std::size_t i) {
  return snapshot.as_object().at("components").as_array().at(i).as_object();
}

}  // namespace

TEST_SUITE("status_maintenance") {
  TEST_CASE("scheduling a window stores it and enqueues maintenance.scheduled") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    auto r = p.edge.post(p.base() + "/maintenances", window_body(p, 3, 5), p.edge.token);
    REQUIRE(r.status == 201);
    const std::string id = str(r.json, "id");
    CHECK(id.starts_with("mnt_"));
    const json::object title{{"tr", "Veritabanı bakımı"}, {"en", "Database upgrade"}};
    const json::object description{{"tr", "Kısa kesinti"}, {"en", "Short downtime"}};
    CHECK(r.json == json::value(json::object{{"id", id},
                                             {"pageId", p.page},
                                             {"description", description},
                                             {"affectedComponentIds", json::array{p.api.c_str()}},
                                             {"manualStartAt", nullptr},
                                             {"manualCompleteAt", nullptr},
                                             {"cancelledAt", nullptr},
                                             {"reminderSent", false},
                                             {"startedSent", false},
                                             {"completedSent", false},
                                             {"createdAt", iso(t0)},
                                             {"updatedAt", iso(t0)},
                                             {"title", title},
                                             {"scheduledStart", iso(t0 + 3 * kHour)},
                                             {"end", iso(t0 + 5 * kHour)},
                                             {"status", "scheduled"},
                                             {"startedAt", nullptr},
                                             {"completedAt", nullptr}}));
    auto events = p.events();
    REQUIRE(events.size() == 1);
    CHECK(events[0].at("event") == "maintenance.scheduled");
    CHECK(events[0].at("pageId") == J(p.page));
    CHECK(events[0].at("componentIds") == json::array{p.api.c_str()});
    CHECK(events[0].at("at") == t0);
    CHECK(events[0].at("data") == json::object{{"maintenanceId", id},
                                               {"title", title},
                                               {"description", description},
                                               {"scheduledStart", iso(t0 + 3 * kHour)},
                                               {"end", iso(t0 + 5 * kHour)},
                                               {"affectedComponentIds", json::array{p.api.c_str()}},
                                               {"status", "scheduled"}});
    auto got = p.edge.get(p.base() + "/maintenances/" + id, p.edge.token);
    CHECK(got.status == 200);
    CHECK(got.json == r.json);
  }

  TEST_CASE("the clock sends the reminder an hour before, starts and completes the window, each once") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    const std::string id = p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    CHECK(p.tick() == 0);
    p.edge.clock.set_ms(t0 + 2 * kHour - 1);
    CHECK(p.tick() == 0);
    // Maintenance | scheduled | time | 1 hour before start | scheduled | reminder notification
    p.edge.clock.set_ms(t0 + 2 * kHour);
    CHECK(p.tick() == 1);
    CHECK(p.tick() == 0);
    CHECK(event_names(p) == std::vector<std::string>{"maintenance.scheduled", "maintenance.reminder"});
    CHECK(p.events()[1].at("data").as_object().at("status") == "scheduled");
    CHECK(p.events()[1].at("at") == t0 + 2 * kHour);
    auto snap = p.edge.get("/api/v1/status/acme-status?lang=tr");
    CHECK(snap.json.as_object().at("upcomingMaintenances") ==
          json::array{json::object{{"id", id},
                                   {"title", "Veritabanı bakımı"},
                                   {"description", "Kısa kesinti"},
                                   {"status", "scheduled"},
                                   {"scheduledStart", iso(t0 + 3 * kHour)},
                                   {"end", iso(t0 + 5 * kHour)},
                                   {"affectedComponentIds", json::array{p.api.c_str()}}}});
    CHECK(component(snap.json, 0).at("status") == "no-data");

    // Maintenance | scheduled | scheduledStart passes | in_progress | started notification
    p.edge.clock.set_ms(t0 + 3 * kHour);
    CHECK(p.tick() == 1);
    CHECK(p.tick() == 0);
    CHECK(event_names(p).back() == "maintenance.started");
    CHECK(p.events().back().at("data").as_object().at("status") == "in_progress");
    auto view = p.edge.get(p.base() + "/maintenances/" + id, p.edge.token);
    CHECK(str(view.json, "status") == "in_progress");
    CHECK(str(view.json, "startedAt") == iso(t0 + 3 * kHour));
    // Component | any | active maintenance window covering it | maintenance (the tick dropped the cache).
    snap = p.edge.get("/api/v1/status/acme-status");
    CHECK(component(snap.json, 0).at("status") == "maintenance");
    CHECK(component(snap.json, 1).at("status") == "no-data");
    CHECK(snap.json.as_object().at("upcomingMaintenances").as_array()[0].as_object().at("status") ==
          "in_progress");
    auto summary = p.edge.get("/api/v1/status/acme-status/summary.json");
    const json::object& s = summary.json.as_object();
    CHECK(s.at("components").as_array()[0].as_object().at("status") == "under_maintenance");
    CHECK(s.at("status") ==
          json::object{{"indicator", "none"}, {"description", "Service Under Maintenance"}});
    REQUIRE(s.at("scheduled_maintenances").as_array().size() == 1);
    const json::object& m = s.at("scheduled_maintenances").as_array()[0].as_object();
    CHECK(m.at("id") == J(id));
    CHECK(m.at("name") == "Database upgrade");
    CHECK(m.at("status") == "in_progress");
    CHECK(m.at("impact") == "maintenance");
    CHECK(m.at("scheduled_for") == J(iso(t0 + 3 * kHour)));
    CHECK(m.at("scheduled_until") == J(iso(t0 + 5 * kHour)));
    CHECK(m.at("started_at") == J(iso(t0 + 3 * kHour)));
    CHECK(m.at("components").as_array().size() == 1);

    // The planned end passes: completed notification, the window leaves the ticker's list.
    p.edge.clock.set_ms(t0 + 5 * kHour);
    CHECK(p.tick() == 1);
    CHECK(p.tick() == 0);
    CHECK(event_names(p) == std::vector<std::string>{"maintenance.scheduled", "maintenance.reminder",
                                                     "maintenance.started", "maintenance.completed"});
    CHECK(p.events().back().at("data").as_object().at("status") == "completed");
    auto index = edge::status::list_records(p.edge.server->app(), "mnt/");
    REQUIRE(index.ok());
    CHECK(index->empty());
    view = p.edge.get(p.base() + "/maintenances/" + id, p.edge.token);
    CHECK(str(view.json, "status") == "completed");
    CHECK(str(view.json, "completedAt") == iso(t0 + 5 * kHour));
    snap = p.edge.get("/api/v1/status/acme-status");
    CHECK(component(snap.json, 0).at("status") == "no-data");
    CHECK(snap.json.as_object().at("upcomingMaintenances") == json::array{});
  }

  TEST_CASE("a late tick still sends started before completed, and nothing twice") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    p.edge.clock.set_ms(t0 + 6 * kHour);  // the process was down through the whole window
    CHECK(p.tick() == 1);
    // No reminder for a window already over; started and completed in this order, 1 ms apart.
    CHECK(event_names(p) ==
          std::vector<std::string>{"maintenance.scheduled", "maintenance.started", "maintenance.completed"});
    CHECK(p.events()[1].at("at") == t0 + 6 * kHour);
    CHECK(p.events()[2].at("at") == t0 + 6 * kHour + 1);
    CHECK(p.tick() == 0);
  }

  TEST_CASE("Start now and Mark complete notify once; the clock then adds nothing") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    const std::string id = p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    const std::string path = p.base() + "/maintenances/" + id;
    p.edge.clock.advance_ms(10 * kMinute);
    // Maintenance | in progress? no: "Mark complete" needs a window in progress.
    auto early = p.edge.post(path + "/complete", "", p.edge.token);
    CHECK(early.status == 409);
    CHECK(early.error() == "maintenance_not_in_progress");
    // Maintenance | scheduled | "Start now" | in_progress | started notification
    auto started = p.edge.post(path + "/start", "", p.edge.token);
    REQUIRE(started.status == 200);
    CHECK(str(started.json, "status") == "in_progress");
    CHECK(str(started.json, "startedAt") == iso(t0 + 10 * kMinute));
    CHECK(str(started.json, "manualStartAt") == iso(t0 + 10 * kMinute));
    CHECK(event_names(p) == std::vector<std::string>{"maintenance.scheduled", "maintenance.started"});
    auto twice = p.edge.post(path + "/start", "", p.edge.token);
    CHECK(twice.status == 409);
    CHECK(twice.error() == "maintenance_not_scheduled");
    // Cancel only before the start.
    auto cancel = p.edge.post(path + "/cancel", "", p.edge.token);
    CHECK(cancel.status == 409);
    CHECK(cancel.error() == "maintenance_not_scheduled");
    // No reminder for a window already in progress, no second started at scheduledStart.
    p.edge.clock.set_ms(t0 + 3 * kHour);
    CHECK(p.tick() == 0);
    // Maintenance | in_progress | "Mark complete" | completed | completed notification
    p.edge.clock.advance_ms(kMinute);
    auto done = p.edge.post(path + "/complete", "", p.edge.token);
    REQUIRE(done.status == 200);
    CHECK(str(done.json, "status") == "completed");
    CHECK(str(done.json, "completedAt") == iso(p.now()));
    CHECK(event_names(p) ==
          std::vector<std::string>{"maintenance.scheduled", "maintenance.started", "maintenance.completed"});
    p.edge.clock.set_ms(t0 + 6 * kHour);
    CHECK(p.tick() == 0);
    CHECK(p.events().size() == 3);
    auto again = p.edge.post(path + "/complete", "", p.edge.token);
    CHECK(again.status == 409);
    CHECK(again.error() == "maintenance_not_in_progress");
  }

  TEST_CASE("Mark complete before the ticker noticed the start sends started, then completed") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    const std::string id = p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    p.edge.clock.set_ms(t0 + 4 * kHour);
    auto done = p.edge.post(p.base() + "/maintenances/" + id + "/complete", "", p.edge.token);
    REQUIRE(done.status == 200);
    CHECK(event_names(p) ==
          std::vector<std::string>{"maintenance.scheduled", "maintenance.started", "maintenance.completed"});
    CHECK(p.tick() == 0);
  }

  TEST_CASE("cancel before the start: cancelled, no notification, and the clock does nothing more") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    const std::string id = p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    const std::string path = p.base() + "/maintenances/" + id;
    // Maintenance | scheduled | cancel | before start | cancelled
    auto r = p.edge.post(path + "/cancel", "", p.edge.token);
    REQUIRE(r.status == 200);
    CHECK(str(r.json, "status") == "cancelled");
    CHECK(str(r.json, "cancelledAt") == iso(t0));
    CHECK(p.edge.post(path + "/cancel", "", p.edge.token).status == 409);
    CHECK(p.edge.post(path + "/start", "", p.edge.token).error() == "maintenance_not_scheduled");
    CHECK(p.edge.patch(path, R"({"title":"x"})", p.edge.token).error() == "maintenance_not_scheduled");
    p.edge.clock.set_ms(t0 + 4 * kHour);
    CHECK(p.tick() == 0);
    CHECK(event_names(p) == std::vector<std::string>{"maintenance.scheduled"});
    auto snap = p.edge.get("/api/v1/status/acme-status");
    CHECK(snap.json.as_object().at("upcomingMaintenances") == json::array{});
    CHECK(component(snap.json, 0).at("status") == "no-data");
    // Lists filter by status.
    auto list = p.edge.get(p.base() + "/maintenances?status=cancelled", p.edge.token);
    REQUIRE(list.json.as_array().size() == 1);
    CHECK(p.edge.get(p.base() + "/maintenances?status=scheduled", p.edge.token).json == json::array{});
    CHECK(p.edge.get(p.base() + "/maintenances?status=soon", p.edge.token).error() == "invalid_field");
  }

  TEST_CASE("patch while scheduled; a moved start owes a new reminder; refused once started") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    const std::string id = p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    const std::string path = p.base() + "/maintenances/" + id;
    p.edge.clock.set_ms(t0 + 2 * kHour);
    CHECK(p.tick() == 1);  // reminder
    auto r = p.edge.patch(path,
                          R"({"title":"Moved","scheduledStart":")" + iso(t0 + 24 * kHour) + R"(","end":")" +
                              iso(t0 + 26 * kHour) + R"(","affectedComponentIds":[")" + p.web + R"("]})",
                          p.edge.token);
    REQUIRE(r.status == 200);
    CHECK(r.json.as_object().at("title") == json::object{{"tr", "Moved"}, {"en", "Moved"}});
    CHECK(str(r.json, "scheduledStart") == iso(t0 + 24 * kHour));
    CHECK(r.json.as_object().at("reminderSent") == false);
    CHECK(r.json.as_object().at("affectedComponentIds") == json::array{p.web.c_str()});
    // The description is kept; a patch changes only what it carries.
    CHECK(r.json.as_object().at("description").as_object().at("en") == "Short downtime");
    CHECK(p.events().size() == 2);  // a patch sends nothing
    p.edge.clock.set_ms(t0 + 23 * kHour);
    CHECK(p.tick() == 1);
    CHECK(event_names(p).back() == "maintenance.reminder");
    CHECK(p.events().back().at("componentIds") == json::array{p.web.c_str()});
    p.edge.clock.set_ms(t0 + 24 * kHour);
    CHECK(p.tick() == 1);
    auto refused = p.edge.patch(path, R"({"title":"late"})", p.edge.token);
    CHECK(refused.status == 409);
    CHECK(refused.error() == "maintenance_not_scheduled");
  }

  TEST_CASE("a window whose start is already past begins at once") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    auto r = p.edge.post(p.base() + "/maintenances",
                         R"({"title":"Now","scheduledStart":")" + iso(t0 - kMinute) + R"(","end":")" +
                             iso(t0 + kHour) + R"(","affectedComponentIds":[")" + p.api + R"("]})",
                         p.edge.token);
    REQUIRE(r.status == 201);
    CHECK(str(r.json, "status") == "in_progress");
    CHECK(r.json.as_object().at("description").is_null());
    CHECK(event_names(p) == std::vector<std::string>{"maintenance.scheduled", "maintenance.started"});
    CHECK(p.events()[1].at("at") == t0 + 1);
    CHECK(p.events()[1].at("data").as_object().at("description").is_null());
    CHECK(component(p.edge.get("/api/v1/status/acme-status").json, 0).at("status") == "maintenance");
  }

  TEST_CASE("bad input is refused with a clear error and changes nothing") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    const std::string start = iso(t0 + kHour), end = iso(t0 + 2 * kHour);
    struct Case {
      std::string body;
      int status;
      const char* code;
    };
    for (const Case& c : {
             Case{"[]", 400, "invalid_body"},
             Case{R"({"scheduledStart":")" + start + R"(","end":")" + end + R"("})", 422, "missing_field"},
             Case{R"({"title":"T","end":")" + end + R"("})", 422, "missing_field"},
             Case{R"({"title":"T","scheduledStart":")" + start + R"("})", 422, "missing_field"},
             Case{R"({"title":"T","scheduledStart":"tomorrow","end":")" + end + R"("})", 422,
                  "invalid_field"},
             Case{R"({"title":"T","scheduledStart":5,"end":")" + end + R"("})", 422, "invalid_field"},
             Case{R"({"title":"T","scheduledStart":")" + end + R"(","end":")" + start + R"("})", 422,
                  "invalid_maintenance_end"},
             Case{R"({"title":"T","scheduledStart":")" + start + R"(","end":")" + start + R"("})", 422,
                  "invalid_maintenance_end"},
             Case{R"({"title":"T","scheduledStart":")" + iso(t0 - 2 * kHour) + R"(","end":")" + iso(t0) +
                      R"("})",
                  422, "invalid_maintenance_end"},
             Case{
                 R"({"title":{"tr":"x","en":""},"scheduledStart":")" + start + R"(","end":")" + end + R"("})",
                 422, "invalid_field"},
             Case{R"({"title":"T","description":7,"scheduledStart":")" + start + R"(","end":")" + end +
                      R"("})",
                  422, "invalid_field"},
             Case{R"({"title":"T","scheduledStart":")" + start + R"(","end":")" + end +
                      R"(","affectedComponentIds":["cmp_elsewhere"]})",
                  422, "invalid_component"},
         }) {
      CAPTURE(c.body);
      auto r = p.edge.post(p.base() + "/maintenances", c.body, p.edge.token);
      CHECK(r.status == c.status);
      CHECK(r.error() == c.code);
    }
    CHECK(p.edge.get(p.base() + "/maintenances", p.edge.token).json == json::array{});
    CHECK(p.events().empty());
    auto index = edge::status::list_records(p.edge.server->app(), "mnt/");
    CHECK(index->empty());
    // A patch that would put the end before the start changes nothing either.
    const std::string id = p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    auto before = p.edge.get(p.base() + "/maintenances/" + id, p.edge.token);
    auto r = p.edge.patch(p.base() + "/maintenances/" + id, R"({"end":")" + iso(t0 + kHour) + R"("})",
                          p.edge.token);
    CHECK(r.status == 422);
    CHECK(r.error() == "invalid_maintenance_end");
    CHECK(p.edge.get(p.base() + "/maintenances/" + id, p.edge.token).json == before.json);
  }

  TEST_CASE("another company's window is 404") {
    IncidentPage p;
    const std::string id = p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 3, 5));
    const std::string globex = p.edge.token_with("globex", {"status.manage"});
    auto globex_page =
        p.edge.post("/api/v1/dashboard/companies/globex/pages", R"({"name":"G","slug":"globex-st"})", globex);
    REQUIRE(globex_page.status == 201);
    const std::string gbase = "/api/v1/dashboard/companies/globex/pages/" + str(globex_page.json, "id");
    for (const char* action : {"/start", "/complete", "/cancel"}) {
      auto r = p.edge.post(gbase + "/maintenances/" + id + action, "", globex);
      CHECK(r.status == 404);
      CHECK(r.error() == "maintenance_not_found");
    }
    CHECK(p.edge.get(gbase + "/maintenances/" + id, globex).status == 404);
    CHECK(p.edge.patch(gbase + "/maintenances/" + id, R"({"title":"x"})", globex).status == 404);
    CHECK(p.edge.get(gbase + "/maintenances", globex).json == json::array{});
    CHECK(event_names(p) == std::vector<std::string>{"maintenance.scheduled"});
  }

  TEST_CASE("downtime inside a window counts neither against uptime nor towards an automatic incident") {
    IncidentPage p;
    const std::int64_t t0 = p.now();
    const std::string check = p.edge.create("/pages/" + p.page + "/components/" + p.api + "/checks",
                                            R"({"name":"Health","url":"https://acme.test/health"})");
    p.edge.create("/pages/" + p.page + "/maintenances", window_body(p, 1, 2));
    p.edge.result(check, t0, ProbeStatus::operational);
    for (int i = 0; i < 4; ++i) p.edge.result(check, t0 + kHour + i * kMinute, ProbeStatus::down);
    p.edge.clock.set_ms(t0 + kHour + 5 * kMinute);
    auto during = p.edge.get("/api/v1/status/acme-status");
    CHECK(component(during.json, 0).at("status") == "maintenance");
    CHECK(component(during.json, 0).at("uptime24h") == 100.0);
    p.edge.result(check, t0 + 2 * kHour + kMinute, ProbeStatus::operational);
    p.edge.clock.set_ms(t0 + 2 * kHour + 2 * kMinute);
    auto after = p.edge.get("/api/v1/status/acme-status");
    json::object api = component(after.json, 0);
    CHECK(api.at("status") == "operational");
    CHECK(api.at("uptime24h") == 100.0);
    CHECK(api.at("uptime30d") == 100.0);
    CHECK(api.at("dailyHistory").as_array().back().as_object().at("status") == "operational");
    // The SLA report counts the window's hour as maintenance, and the failures inside it as nothing else.
    auto sla = p.edge.get(p.base() + "/sla?from=2026-11-18&to=2026-11-18", p.edge.token);
    REQUIRE(sla.status == 200);
    json::object row = sla.json.at("components").at(0).as_object();
    CHECK(row.at("id") == J(p.api));
    CHECK(row.at("maintenanceMinutes") == 60.0);
    CHECK(row.at("downMinutes") == 0.0);
    CHECK(row.at("degradedMinutes") == 0.0);
    CHECK(row.at("uptime") == 100.0);
    // Four failures in a row, all in maintenance: no automatic incident.
    CHECK(p.edge.get(p.base() + "/incidents", p.edge.token).json == json::array{});
    CHECK(event_names(p) == std::vector<std::string>{"maintenance.scheduled"});
  }
}
