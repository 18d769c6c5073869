// Manual incidents through the dashboard API (docs/status-incidents.md): creation with the first update,
// the Incident rows of the spec's States table with the manual clock, the outbox records each update writes,
// validation that changes nothing, other companies' 404, and the snapshot and summary members.

#include <doctest/doctest.h>

#include "status_incidents_support.h"

using namespace status_test;
namespace json = core::json;

namespace {

constexpr std::int64_t kMinute = 60'000;
const char* kT0 = "2026-11-18T11:06:40.000Z";  // TestEdge::kStart

std::string create_body(const std::string& components) {
  return R"({"title":{"tr":"API yavaş","en":"API slow"},"impact":"major","affectedComponentIds":[)" +
         components + R"(],"body":{"tr":"İnceliyoruz","en":"We are investigating"}})";
}

json::object update_of(const json::value& incident, std::size_t i) {
  return incident.as_object().at("updates").as_array().at(i).as_object();
}

}  // namespace

TEST_SUITE("status_incidents") {
  TEST_CASE("creating an incident stores its first update and enqueues incident.updated") {
    IncidentPage p;
    auto r = p.edge.post(p.base() + "/incidents", create_body("\"" + p.api + "\""), p.edge.token);
    REQUIRE(r.status == 201);
    const std::string id = str(r.json, "id");
    json::object update = update_of(r.json, 0);
    const std::string update_id = std::string(update.at("id").as_string());
    CHECK(id.starts_with("inc_"));
    CHECK(update_id.starts_with("upd_"));
    json::object expected_update{
        {"id", update_id},
        {"status", "investigating"},
        {"body", json::object{{"tr", "İnceliyoruz"}, {"en", "We are investigating"}}},
        {"createdAt", kT0}};
    CHECK(r.json == json::value(json::object{{"id", id},
                                             {"pageId", p.page},
                                             {"title", json::object{{"tr", "API yavaş"}, {"en", "API slow"}}},
                                             {"status", "investigating"},
                                             {"impact", "major"},
                                             {"affectedComponentIds", json::array{p.api.c_str()}},
                                             {"source", "manual"},
                                             {"startedAt", kT0},
                                             {"resolvedAt", nullptr},
                                             {"updates", json::array{expected_update}},
                                             {"createdAt", kT0},
                                             {"updatedAt", kT0}}));
    auto events = p.events();
    REQUIRE(events.size() == 1);
    json::object ev = events[0];
    CHECK(std::string(ev.at("id").as_string()).starts_with("evt_"));
    ev.erase("id");
    CHECK(ev == json::object{{"event", "incident.updated"},
                             {"companyId", events[0].at("companyId")},
                             {"pageId", p.page},
                             {"componentIds", json::array{p.api.c_str()}},
                             {"data", json::object{{"incidentId", id},
                                                   {"incidentTitle",
                                                    json::object{{"tr", "API yavaş"}, {"en", "API slow"}}},
                                                   {"impact", "major"},
                                                   {"affectedComponentIds", json::array{p.api.c_str()}},
                                                   {"update", expected_update}}},
                             {"at", testing::TestEdge::kStart}});
    CHECK(!std::string(ev.at("companyId").as_string()).empty());
    // GET one answers the same record.
    auto got = p.edge.get(p.base() + "/incidents/" + id, p.edge.token);
    CHECK(got.status == 200);
    CHECK(got.json == r.json);
  }

  TEST_CASE("updates move investigating -> identified -> monitoring -> resolved, each notified") {
    IncidentPage p;
    const std::string id = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    const std::string path = p.base() + "/incidents/" + id + "/updates";
    struct Step {
      const char* status;
      const char* event;
    };
    std::size_t n = 1;
    for (Step step : {Step{"identified", "incident.updated"}, Step{"monitoring", "incident.updated"},
                      Step{"resolved", "incident.resolved"}}) {
      CAPTURE(step.status);
      p.edge.clock.advance_ms(10 * kMinute);
      auto r = p.edge.post(path,
                           std::string(R"({"status":")") + step.status + R"(","body":{"tr":"TR )" +
                               step.status + R"(","en":"EN )" + step.status + R"("}})",
                           p.edge.token);
      REQUIRE(r.status == 201);
      CHECK(str(r.json, "status") == step.status);
      auto updates = r.json.as_object().at("updates").as_array();
      REQUIRE(updates.size() == ++n);
      json::object last = updates.back().as_object();
      CHECK(last.at("status") == step.status);
      CHECK(last.at("createdAt") == J(core::format_timestamp(p.now())));
      auto events = p.events();
      REQUIRE(events.size() == n);
      CHECK(events.back().at("event") == step.event);
      // The same data shape for incident.resolved as for incident.updated.
      json::object data = events.back().at("data").as_object();
      CHECK(data.at("update") == json::value(last));
      CHECK(data.at("incidentId") == J(id));
      CHECK(data.at("affectedComponentIds") == json::array{});
      CHECK(events.back().at("at") == p.now());
    }
    auto resolved = p.edge.get(p.base() + "/incidents/" + id, p.edge.token);
    CHECK(str(resolved.json, "resolvedAt") == core::format_timestamp(p.now()));
    // A resolved incident takes no update: 409, nothing changes.
    auto again = p.edge.post(path, R"({"status":"resolved","body":"again"})", p.edge.token);
    CHECK(again.status == 409);
    CHECK(again.error() == "incident_resolved");
    CHECK(p.events().size() == 4);
    CHECK(p.edge.get(p.base() + "/incidents/" + id, p.edge.token).json == resolved.json);
  }

  TEST_CASE("an update may repeat the status or skip forward, never go back") {
    IncidentPage p;
    const std::string id = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    const std::string path = p.base() + "/incidents/" + id + "/updates";
    CHECK(p.edge.post(path, R"({"status":"investigating","body":"still looking"})", p.edge.token).status ==
          201);
    CHECK(p.edge.post(path, R"({"status":"monitoring","body":"fix deployed"})", p.edge.token).status == 201);
    auto back = p.edge.post(path, R"({"status":"identified","body":"oops"})", p.edge.token);
    CHECK(back.status == 409);
    CHECK(back.error() == "invalid_incident_transition");
    // A plain string body is used for both languages.
    auto got = p.edge.get(p.base() + "/incidents/" + id, p.edge.token);
    CHECK(update_of(got.json, 2).at("body") == json::object{{"tr", "fix deployed"}, {"en", "fix deployed"}});
    CHECK(got.json.as_object().at("updates").as_array().size() == 3);
    CHECK(p.events().size() == 3);
    // Skipping straight to resolved from investigating is allowed too.
    const std::string quick = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    auto r = p.edge.post(p.base() + "/incidents/" + quick + "/updates",
                         R"({"status":"resolved","body":"fixed"})", p.edge.token);
    CHECK(r.status == 201);
    CHECK(str(r.json, "status") == "resolved");
  }

  TEST_CASE("bad input is refused with a clear error and changes nothing") {
    IncidentPage p;
    struct Case {
      const char* body;
      int status;
      const char* code;
    };
    const std::string other_company_component = "cmp_nothere";
    for (Case c : {
             Case{"{", 400, "invalid_json"},
             Case{R"({"impact":"major","body":"x"})", 422, "missing_field"},
             Case{R"({"title":"T","body":"x"})", 422, "missing_field"},
             Case{R"({"title":"T","impact":"huge","body":"x"})", 422, "invalid_impact"},
             Case{R"({"title":"T","impact":"none","body":"x"})", 422, "invalid_impact"},
             Case{R"({"title":"T","impact":"minor"})", 422, "missing_field"},
             Case{R"({"title":"T","impact":"minor","body":{"tr":"x"}})", 422, "missing_field"},
             Case{R"({"title":"","impact":"minor","body":"x"})", 422, "invalid_field"},
             Case{R"({"title":42,"impact":"minor","body":"x"})", 422, "invalid_field"},
             Case{R"({"title":"T","impact":"minor","body":"x","status":"done"})", 422,
                  "invalid_incident_status"},
             Case{R"({"title":"T","impact":"minor","body":"x","status":"resolved"})", 422,
                  "invalid_incident_status"},
             Case{R"({"title":"T","impact":"minor","body":"x","affectedComponentIds":"cmp"})", 422,
                  "invalid_field"},
             Case{R"({"title":"T","impact":"minor","body":"x","affectedComponentIds":["cmp_nothere"]})", 422,
                  "invalid_component"},
         }) {
      CAPTURE(c.body);
      auto r = p.edge.post(p.base() + "/incidents", c.body, p.edge.token);
      CHECK(r.status == c.status);
      CHECK(r.error() == c.code);
    }
    CHECK(p.edge.get(p.base() + "/incidents", p.edge.token).json == json::array{});
    CHECK(p.events().empty());

    const std::string id = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    auto before = p.edge.get(p.base() + "/incidents/" + id, p.edge.token);
    for (Case c : {Case{R"({"body":"x"})", 422, "missing_field"},
                   Case{R"({"status":"fixed","body":"x"})", 422, "invalid_incident_status"},
                   Case{R"({"status":"identified"})", 422, "missing_field"}}) {
      CAPTURE(c.body);
      auto r = p.edge.post(p.base() + "/incidents/" + id + "/updates", c.body, p.edge.token);
      CHECK(r.status == c.status);
      CHECK(r.error() == c.code);
    }
    for (Case c : {Case{R"({"impact":"big"})", 422, "invalid_impact"},
                   Case{R"({"affectedComponentIds":["x/y"]})", 422, "invalid_component"},
                   Case{R"({"title":{"en":"only"}})", 422, "missing_field"}}) {
      CAPTURE(c.body);
      auto r = p.edge.patch(p.base() + "/incidents/" + id, c.body, p.edge.token);
      CHECK(r.status == c.status);
      CHECK(r.error() == c.code);
    }
    CHECK(p.edge.get(p.base() + "/incidents/" + id, p.edge.token).json == before.json);
    CHECK(p.events().size() == 1);
  }

  TEST_CASE("patch changes title, impact and components without a notification; delete removes") {
    IncidentPage p;
    const std::string id = p.edge.create("/pages/" + p.page + "/incidents", create_body("\"" + p.api + "\""));
    p.edge.clock.advance_ms(kMinute);
    auto r = p.edge.patch(p.base() + "/incidents/" + id,
                          R"({"title":"Outage","impact":"critical","affectedComponentIds":[")" + p.api +
                              R"(",")" + p.web + R"(",")" + p.api + R"("]})",
                          p.edge.token);
    REQUIRE(r.status == 200);
    CHECK(r.json.as_object().at("title") == json::object{{"tr", "Outage"}, {"en", "Outage"}});
    CHECK(str(r.json, "impact") == "critical");
    CHECK(r.json.as_object().at("affectedComponentIds") == json::array{p.api.c_str(), p.web.c_str()});
    CHECK(str(r.json, "updatedAt") == core::format_timestamp(p.now()));
    CHECK(r.json.as_object().at("updates").as_array().size() == 1);
    CHECK(p.events().size() == 1);
    CHECK(p.edge.del(p.base() + "/incidents/" + id, p.edge.token).status == 204);
    auto gone = p.edge.get(p.base() + "/incidents/" + id, p.edge.token);
    CHECK(gone.status == 404);
    CHECK(gone.error() == "incident_not_found");
    CHECK(p.edge.del(p.base() + "/incidents/" + id, p.edge.token).status == 404);
  }

  TEST_CASE("lists filter active and resolved, newest first, paged") {
    IncidentPage p;
    const std::string a = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    p.edge.clock.advance_ms(kMinute);
    const std::string b = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    p.edge.clock.advance_ms(kMinute);
    const std::string c = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    REQUIRE(p.edge
                .post(p.base() + "/incidents/" + b + "/updates", R"({"status":"resolved","body":"ok"})",
                      p.edge.token)
                .status == 201);
    auto ids = [&](const std::string& query) {
      auto r = p.edge.get(p.base() + "/incidents" + query, p.edge.token);
      REQUIRE(r.status == 200);
      std::vector<std::string> out;
      for (auto& i : r.json.as_array()) out.push_back(str(i, "id"));
      return out;
    };
    CHECK(ids("") == std::vector<std::string>{c, b, a});
    CHECK(ids("?state=active") == std::vector<std::string>{c, a});
    CHECK(ids("?state=resolved") == std::vector<std::string>{b});
    CHECK(ids("?limit=1&skip=1") == std::vector<std::string>{b});
    CHECK(p.edge.get(p.base() + "/incidents?state=open", p.edge.token).error() == "invalid_field");
  }

  TEST_CASE("another company's incident is 404 and reads need status.view, writes status.manage") {
    IncidentPage p;
    const std::string id = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    // globex's own page, asked for acme's incident id.
    const std::string globex = p.edge.token_with("globex", {"status.manage"});
    auto globex_page =
        p.edge.post("/api/v1/dashboard/companies/globex/pages", R"({"name":"G","slug":"globex-st"})", globex);
    REQUIRE(globex_page.status == 201);
    const std::string gbase = "/api/v1/dashboard/companies/globex/pages/" + str(globex_page.json, "id");
    auto r = p.edge.get(gbase + "/incidents/" + id, globex);
    CHECK(r.status == 404);
    CHECK(r.error() == "incident_not_found");
    r = p.edge.post(gbase + "/incidents/" + id + "/updates", R"({"status":"resolved","body":"x"})", globex);
    CHECK(r.status == 404);
    CHECK(p.edge.patch(gbase + "/incidents/" + id, R"({"impact":"minor"})", globex).status == 404);
    CHECK(p.edge.del(gbase + "/incidents/" + id, globex).status == 404);
    // acme's page through globex's company: the page is not found.
    r = p.edge.get("/api/v1/dashboard/companies/globex/pages/" + p.page + "/incidents", globex);
    CHECK(r.status == 404);
    CHECK(r.error() == "page_not_found");
    // Permissions.
    const std::string viewer = p.edge.token_with("acme", {"status.view"});
    CHECK(p.edge.get(p.base() + "/incidents/" + id, viewer).status == 200);
    auto denied = p.edge.post(p.base() + "/incidents/" + id + "/updates",
                              R"({"status":"resolved","body":"x"})", viewer);
    CHECK(denied.status == 403);
    CHECK(denied.error() == "forbidden");
    CHECK(p.events().size() == 1);
  }

  TEST_CASE("the snapshot shows active and past incidents in the requested language") {
    IncidentPage p;
    const std::string old_id =
        p.edge.create("/pages/" + p.page + "/incidents", create_body("\"" + p.api + "\""));
    p.edge.clock.advance_ms(kMinute);
    REQUIRE(p.edge
                .post(p.base() + "/incidents/" + old_id + "/updates",
                      R"({"status":"resolved","body":{"tr":"Çözüldü","en":"Resolved"}})", p.edge.token)
                .status == 201);
    const std::string resolved_at = core::format_timestamp(p.now());
    p.edge.clock.advance_ms(kMinute);
    const std::string started = core::format_timestamp(p.now());
    auto created = p.edge.post(p.base() + "/incidents", create_body("\"" + p.web + "\""), p.edge.token);
    REQUIRE(created.status == 201);
    const std::string id = str(created.json, "id");
    p.edge.clock.advance_ms(kMinute);
    auto updated =
        p.edge.post(p.base() + "/incidents/" + id + "/updates",
                    R"({"status":"identified","body":{"tr":"Bulundu","en":"Found"}})", p.edge.token);
    REQUIRE(updated.status == 201);
    auto u0 = update_of(updated.json, 0), u1 = update_of(updated.json, 1);

    auto tr = p.edge.get("/api/v1/status/acme-status?lang=tr");
    REQUIRE(tr.status == 200);
    const json::object& snap = tr.json.as_object();
    CHECK(
        snap.at("activeIncidents") ==
        json::array{json::object{{"id", id},
                                 {"title", "API yavaş"},
                                 {"status", "identified"},
                                 {"impact", "major"},
                                 {"affectedComponentIds", json::array{p.web.c_str()}},
                                 {"startedAt", started},
                                 {"updates", json::array{json::object{{"id", u1.at("id")},
                                                                      {"status", "identified"},
                                                                      {"body", "Bulundu"},
                                                                      {"createdAt", u1.at("createdAt")}},
                                                         json::object{{"id", u0.at("id")},
                                                                      {"status", "investigating"},
                                                                      {"body", "İnceliyoruz"},
                                                                      {"createdAt", u0.at("createdAt")}}}}}});
    CHECK(snap.at("pastIncidents") ==
          json::array{json::object{{"id", old_id},
                                   {"title", "API yavaş"},
                                   {"impact", "major"},
                                   {"startedAt", kT0},
                                   {"resolvedAt", resolved_at},
                                   {"affectedComponentIds", json::array{p.api.c_str()}}}});
    auto en = p.edge.get("/api/v1/status/acme-status?lang=en");
    CHECK(en.json.as_object().at("activeIncidents").as_array()[0].as_object().at("title") == "API slow");

    // Summary: the unresolved incident with its updates, newest first, and the indicator from its impact.
    auto summary = p.edge.get("/api/v1/status/acme-status/summary.json");
    REQUIRE(summary.status == 200);
    const json::object& s = summary.json.as_object();
    CHECK(s.at("status") == json::object{{"indicator", "major"}, {"description", "Partial System Outage"}});
    REQUIRE(s.at("incidents").as_array().size() == 1);
    const json::object& inc = s.at("incidents").as_array()[0].as_object();
    CHECK(inc.at("id") == J(id));
    CHECK(inc.at("name") == "API slow");
    CHECK(inc.at("status") == "identified");
    CHECK(inc.at("impact") == "major");
    CHECK(inc.at("started_at") == J(started));
    CHECK(inc.at("resolved_at").is_null());
    CHECK(inc.at("components").as_array().size() == 1);
    CHECK(inc.at("components").as_array()[0].as_object().at("id") == J(p.web));
    const json::array& updates = inc.at("incident_updates").as_array();
    REQUIRE(updates.size() == 2);
    CHECK(updates[0].as_object().at("body") == "Found");
    CHECK(updates[0].as_object().at("incident_id") == J(id));
    CHECK(updates[1].as_object().at("status") == "investigating");
    CHECK(s.at("scheduled_maintenances") == json::array{});
  }

  TEST_CASE("past incidents are those resolved in the last 90 days") {
    IncidentPage p;
    const std::string id = p.edge.create("/pages/" + p.page + "/incidents", create_body(""));
    REQUIRE(p.edge
                .post(p.base() + "/incidents/" + id + "/updates", R"({"status":"resolved","body":"ok"})",
                      p.edge.token)
                .status == 201);
    // Exactly 90 days after the resolution it drops out (31 s apart: past the snapshot cache's 30 s).
    p.edge.clock.advance_ms(90LL * 24 * 60 * kMinute - 31'000);
    CHECK(p.edge.get("/api/v1/status/acme-status").json.as_object().at("pastIncidents").as_array().size() ==
          1);
    p.edge.clock.advance_ms(31'000);
    CHECK(p.edge.get("/api/v1/status/acme-status").json.as_object().at("pastIncidents") == json::array{});
  }
}
