// Automatic incidents (docs/status-incidents.md, "Automatic incidents"): the Incident (auto) rows of the
// spec's States table fed through append_check_result as the probe worker records results, one incident
// per component, and a manual resolve that leaves the state machines sane.

#include <doctest/doctest.h>

#include "edge/status/incident_store.h"
#include "status_incidents_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;

namespace {

constexpr std::int64_t kMinute = 60'000;

std::string iso(std::int64_t ms) {
  return core::format_timestamp(ms);
}

struct AutoPage : IncidentPage {
  AutoPage() {
    health = check(api, "Health");
    login = check(api, "Login");
  }
  std::string check(const std::string& component, const std::string& name) {
    return edge.create("/pages/" + page + "/components/" + component + "/checks",
                       R"({"name":")" + name + R"(","url":"https://acme.test/)" + name + R"("})");
  }
  json::array incidents(const std::string& query = "") {
    auto r = edge.get(base() + "/incidents" + query, edge.token);
    REQUIRE(r.status == 200);
    return r.json.as_array();
  }
  void results(const std::string& check_id, std::int64_t from, int count, ProbeStatus status) {
    for (int i = 0; i < count; ++i) edge.result(check_id, from + i * kMinute, status);
  }
  std::string health, login;
};

}  // namespace

TEST_SUITE("status_auto_incidents") {
  TEST_CASE("3 consecutive failures open an investigating incident; 30 minutes of recovery resolve it") {
    AutoPage p;
    const std::int64_t t0 = p.now();
    p.edge.result(p.health, t0, ProbeStatus::operational);
    p.results(p.health, t0 + kMinute, 2, ProbeStatus::down);
    CHECK(p.incidents().empty());
    CHECK(p.events().empty());
    // Incident (auto) | none | worker | 3 or more consecutive failures of a check | investigating, source
    // auto
    p.edge.result(p.health, t0 + 3 * kMinute, ProbeStatus::down);
    auto list = p.incidents();
    REQUIRE(list.size() == 1);
    json::object incident = list[0].as_object();
    const std::string id(incident.at("id").as_string());
    REQUIRE(incident.at("updates").as_array().size() == 1);
    json::object update = incident.at("updates").as_array()[0].as_object();
    const json::object title{{"tr", "API hizmetinde kesinti"}, {"en", "API outage"}};
    const json::object body{
        {"tr", "Otomatik izleme, API bileşeninin \"Health\" denetiminin " + iso(t0 + kMinute) +
                   " itibarıyla art arda 3 kez başarısız olduğunu tespit etti. İnceliyoruz."},
        {"en", "Automatic monitoring found 3 consecutive failures of the check \"Health\" of API since " +
                   iso(t0 + kMinute) + ". We are investigating."}};
    CHECK(update.at("status") == "investigating");
    CHECK(update.at("body") == body);
    CHECK(update.at("createdAt") == J(iso(t0 + 3 * kMinute)));
    CHECK(incident.at("title") == title);
    CHECK(incident.at("status") == "investigating");
    CHECK(incident.at("source") == "auto");
    CHECK(incident.at("impact") == "major");
    CHECK(incident.at("affectedComponentIds") == json::array{p.api.c_str()});
    CHECK(incident.at("startedAt") == J(iso(t0 + kMinute)));  // the outage's start, the first failure
    CHECK(incident.at("resolvedAt").is_null());
    auto events = p.events();
    REQUIRE(events.size() == 1);
    CHECK(events[0].at("event") == "incident.updated");
    CHECK(events[0].at("componentIds") == json::array{p.api.c_str()});
    CHECK(events[0].at("data") == json::object{{"incidentId", id},
                                               {"incidentTitle", title},
                                               {"impact", "major"},
                                               {"affectedComponentIds", json::array{p.api.c_str()}},
                                               {"update", update}});
    // The snapshot shows it (the incident dropped the cached page).
    p.edge.clock.set_ms(t0 + 3 * kMinute);
    auto snap = p.edge.get("/api/v1/status/acme-status?lang=en");
    REQUIRE(snap.json.as_object().at("activeIncidents").as_array().size() == 1);
    CHECK(snap.json.as_object().at("activeIncidents").as_array()[0].as_object().at("title") == "API outage");

    // Further failures change nothing.
    p.results(p.health, t0 + 4 * kMinute, 5, ProbeStatus::down);
    CHECK(p.incidents().size() == 1);
    CHECK(p.events().size() == 1);
    // Incident (auto) | open | worker | 30 minutes of recovered operation | resolved
    const std::int64_t recovered = t0 + 10 * kMinute;
    p.edge.result(p.health, recovered, ProbeStatus::operational);
    p.edge.result(p.health, recovered + 29 * kMinute,
                  ProbeStatus::degraded);  // slow but up counts as recovered
    CHECK(p.events().size() == 1);
    p.edge.result(p.health, recovered + 30 * kMinute, ProbeStatus::operational);
    events = p.events();
    REQUIRE(events.size() == 2);
    CHECK(events[1].at("event") == "incident.resolved");
    auto got = p.edge.get(p.base() + "/incidents/" + id, p.edge.token);
    CHECK(str(got.json, "status") == "resolved");
    CHECK(str(got.json, "resolvedAt") == iso(recovered + 30 * kMinute));
    json::object resolved = got.json.as_object().at("updates").as_array()[1].as_object();
    CHECK(
        resolved.at("body") ==
        json::object{{"tr",
                      "API bileşeninin \"Health\" denetimi 30 dakikadır sorunsuz çalışıyor. Olay otomatik "
                      "olarak çözüldü."},
                     {"en",
                      "The check \"Health\" of API has been operating normally for 30 minutes. The incident "
                      "was resolved automatically."}});
    CHECK(events[1].at("data").as_object().at("update") == json::value(resolved));
    // The check's state machine is back to its initial state, which is not stored.
    auto state = edge::status::get_record(p.edge.server->app(), edge::status::auto_state_key(p.health));
    REQUIRE(state.ok());
    CHECK(!state->has_value());
  }

  TEST_CASE("a failure run interrupted before the third failure opens nothing") {
    AutoPage p;
    const std::int64_t t0 = p.now();
    p.results(p.health, t0, 2, ProbeStatus::down);
    p.edge.result(p.health, t0 + 2 * kMinute, ProbeStatus::operational);
    p.results(p.health, t0 + 3 * kMinute, 2, ProbeStatus::down);
    CHECK(p.incidents().empty());
    p.edge.result(p.health, t0 + 5 * kMinute, ProbeStatus::down);
    auto list = p.incidents();
    REQUIRE(list.size() == 1);
    CHECK(list[0].as_object().at("startedAt") == J(iso(t0 + 3 * kMinute)));
  }

  TEST_CASE("several failing checks of one component share one incident, resolved when the last recovers") {
    AutoPage p;
    const std::int64_t t0 = p.now();
    p.results(p.health, t0 + kMinute, 3, ProbeStatus::down);
    p.results(p.login, t0 + 4 * kMinute, 3, ProbeStatus::down);
    REQUIRE(p.incidents().size() == 1);
    CHECK(p.events().size() == 1);
    // A check of another component opens its own.
    const std::string smtp = p.check(p.web, "SMTP");
    p.results(smtp, t0 + 4 * kMinute, 3, ProbeStatus::down);
    CHECK(p.incidents().size() == 2);
    CHECK(p.events().size() == 2);
    // Health recovers; Login still fails: the API incident stays open.
    p.edge.result(p.health, t0 + 10 * kMinute, ProbeStatus::operational);
    p.edge.result(p.health, t0 + 40 * kMinute, ProbeStatus::operational);
    CHECK(p.events().size() == 2);
    CHECK(p.incidents("?state=active").size() == 2);
    p.edge.result(p.login, t0 + 41 * kMinute, ProbeStatus::operational);
    p.edge.result(p.login, t0 + 71 * kMinute, ProbeStatus::operational);
    auto events = p.events();
    REQUIRE(events.size() == 3);
    CHECK(events[2].at("event") == "incident.resolved");
    CHECK(events[2].at("componentIds") == json::array{p.api.c_str()});
    auto active = p.incidents("?state=active");
    REQUIRE(active.size() == 1);
    CHECK(active[0].as_object().at("affectedComponentIds") == json::array{p.web.c_str()});
  }

  TEST_CASE("a manual update keeps the automatic resolution; a manual resolve starts the count afresh") {
    AutoPage p;
    const std::int64_t t0 = p.now();
    p.results(p.health, t0 + kMinute, 3, ProbeStatus::down);
    const std::string id = str(p.incidents()[0], "id");
    p.edge.clock.set_ms(t0 + 5 * kMinute);
    auto r =
        p.edge.post(p.base() + "/incidents/" + id + "/updates",
                    R"({"status":"identified","body":{"tr":"Disk dolu","en":"Disk full"}})", p.edge.token);
    REQUIRE(r.status == 201);
    // The operator resolves it while the check still fails.
    p.edge.clock.set_ms(t0 + 6 * kMinute);
    r = p.edge.post(p.base() + "/incidents/" + id + "/updates", R"({"status":"resolved","body":"Fixed"})",
                    p.edge.token);
    REQUIRE(r.status == 201);
    CHECK(p.events().size() == 3);
    auto state = edge::status::get_record(p.edge.server->app(), edge::status::auto_state_key(p.health));
    CHECK(!state->has_value());
    // Two more failures: nothing yet; the third after the resolve opens a new automatic incident.
    p.results(p.health, t0 + 7 * kMinute, 2, ProbeStatus::down);
    CHECK(p.incidents("?state=active").empty());
    p.edge.result(p.health, t0 + 9 * kMinute, ProbeStatus::down);
    auto active = p.incidents("?state=active");
    REQUIRE(active.size() == 1);
    CHECK(str(active[0], "id") != id);
    CHECK(active[0].as_object().at("startedAt") == J(iso(t0 + 7 * kMinute)));
    // Recovery resolves the new one only; the old one keeps its manual resolution.
    p.edge.result(p.health, t0 + 10 * kMinute, ProbeStatus::operational);
    p.edge.result(p.health, t0 + 40 * kMinute, ProbeStatus::operational);
    CHECK(p.incidents("?state=active").empty());
    auto old = p.edge.get(p.base() + "/incidents/" + id, p.edge.token);
    CHECK(old.json.as_object().at("updates").as_array().size() == 3);
    CHECK(p.events().size() == 5);
  }

  TEST_CASE("deleting an automatic incident also starts the count afresh") {
    AutoPage p;
    const std::int64_t t0 = p.now();
    p.results(p.health, t0, 3, ProbeStatus::down);
    const std::string id = str(p.incidents()[0], "id");
    CHECK(p.edge.del(p.base() + "/incidents/" + id, p.edge.token).status == 204);
    p.results(p.health, t0 + 3 * kMinute, 2, ProbeStatus::down);
    CHECK(p.incidents().empty());
    p.edge.result(p.health, t0 + 5 * kMinute, ProbeStatus::down);
    CHECK(p.incidents().size() == 1);
  }
}

TEST_SUITE("status_auto_incidents") {
  TEST_CASE("deleting the page removes its incidents, links, windows and their index entries") {
    AutoPage p;
    const std::int64_t t0 = p.now();
    p.results(p.health, t0, 3, ProbeStatus::down);
    p.edge.create("/pages/" + p.page + "/maintenances", R"({"title":"W","scheduledStart":")" +
                                                            iso(t0 + 60 * kMinute) + R"(","end":")" +
                                                            iso(t0 + 120 * kMinute) + R"("})");
    const std::string company(p.events().at(0).at("companyId").as_string());
    edge::App& app = p.edge.server->app();
    auto count = [&](const std::string& prefix) {
      auto all = edge::status::list_records(app, prefix);
      REQUIRE(all.ok());
      return all->size();
    };
    CHECK(count("c/" + company + "/incident/") == 1);
    CHECK(count("c/" + company + "/autoincident/") == 1);
    CHECK(count("c/" + company + "/maintenance/") == 1);
    CHECK(count("mnt/") == 1);
    CHECK(count("ai/") == 1);
    REQUIRE(p.edge.del(p.base(), p.edge.token).status == 204);
    CHECK(count("c/" + company + "/incident/") == 0);
    CHECK(count("c/" + company + "/autoincident/") == 0);
    CHECK(count("c/" + company + "/maintenance/") == 0);
    CHECK(count("mnt/") == 0);
    CHECK(count("ai/") == 0);
    p.edge.clock.set_ms(t0 + 60 * kMinute);
    CHECK(p.tick() == 0);
  }
}
