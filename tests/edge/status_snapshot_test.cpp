// The public snapshot {status_url}/api/v1/status/{slug} and summary.json: every member computed from
// stored probe results, the 30 s cache, CORS, the locale and Statuspage's status mapping.

#include <doctest/doctest.h>

#include "core/date.h"
#include "status_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;

namespace {

constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kDay = 24 * 60 * kMinute;

// acme-status with three components:
//   API      one check: operational now, a down beat 5 minutes ago, degraded two days ago, down 40 days
//            ago, and one beat 100 days ago (outside every window);
//   Website  one check never probed;
//   Mail     two checks, one down and one operational.
struct Page {
  Page() {
    page = edge.page();
    edge.patch(
        kDash + "/pages/" + page,
        R"({"branding":{"displayName":"Acme Cloud","primaryColor":"#112233"},"subscribersEnabled":true})",
        edge.token);
    api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    web = edge.create("/pages/" + page + "/components", R"({"name":"Website"})");
    mail = edge.create("/pages/" + page + "/components", R"({"name":"Mail"})");
    health = check(api, "Health");
    home = check(web, "Home");
    smtp = check(mail, "SMTP");
    imap = check(mail, "IMAP");
    const std::int64_t now = edge.clock.now_ms();
    edge.result(health, now - 100 * kDay, ProbeStatus::down);
    edge.result(health, now - 40 * kDay, ProbeStatus::down);
    edge.result(health, now - 2 * kDay, ProbeStatus::degraded, 2500);
    edge.result(health, now - 10 * kMinute, ProbeStatus::operational);
    edge.result(health, now - 5 * kMinute, ProbeStatus::down);
    edge.result(health, now, ProbeStatus::operational, 120);
    edge.result(smtp, now - kMinute, ProbeStatus::down, 5000);
    edge.result(imap, now - 2 * kMinute, ProbeStatus::operational, 40);
  }
  std::string check(const std::string& component, const std::string& name) {
    return edge.create("/pages/" + page + "/components/" + component + "/checks",
                       R"({"name":")" + name + R"(","url":"https://acme.test/)" + name + R"("})");
  }
  StatusEdge edge;
  std::string page, api, web, mail, health, home, smtp, imap;
};

// 90 no-data days ending 2026-11-18, with `overrides` (date -> status).
json::array history(std::initializer_list<std::pair<const char*, const char*>> overrides) {
  json::array out;
  core::CivilDate day = core::add_days(core::CivilDate{2026, 11, 18}, -89);
  for (int i = 0; i < 90; ++i, day = core::add_days(day, 1)) {
    std::string key = core::format_day_key(day);
    std::string status = "no-data";
    for (auto& [date, s] : overrides)
      if (key == date) status = s;
    out.emplace_back(json::object{{"date", key}, {"status", status}});
  }
  return out;
}

}  // namespace

TEST_SUITE("status_snapshot") {
  TEST_CASE("the snapshot carries every member, computed from the stored results") {
    Page p;
    auto r = p.edge.get("/api/v1/status/acme-status");
    REQUIRE(r.status == 200);
    // Checks list in creation order; created in the same millisecond, by id.
    json::array mail_checks{json::object{{"id", p.smtp},
                                         {"name", "SMTP"},
                                         {"status", "down"},
                                         {"lastLatencyMs", 5000},
                                         {"lastCheckedAt", "2026-11-18T11:05:40.000Z"}},
                            json::object{{"id", p.imap},
                                         {"name", "IMAP"},
                                         {"status", "operational"},
                                         {"lastLatencyMs", 40},
                                         {"lastCheckedAt", "2026-11-18T11:04:40.000Z"}}};
    if (p.imap < p.smtp) std::swap(mail_checks[0], mail_checks[1]);
    json::object expected{
        {"page", json::object{{"name", "Acme"},
                              {"slug", "acme-status"},
                              {"branding", json::object{{"displayName", "Acme Cloud"},
                                                        {"primaryColor", "#112233"},
                                                        {"logoUrl", nullptr},
                                                        {"logoLinkUrl", nullptr},
                                                        {"tagline", nullptr}}},
                              {"customDomain", nullptr},
                              {"subscribersEnabled", true}}},
        {"overall", "down"},
        {"components",
         json::array{
             json::object{
                 {"id", p.api},
                 {"name", "API"},
                 {"status", "operational"},
                 // Time, not beats (docs/status-rules.md): each result vouches for 75 s (60 s interval,
                 // 10 s timeout, 5 s grace). 24 h: 75 s up, 75 s down (the result at now has no time
                 // yet) -> 50 %; 30 d adds the degraded 75 s (counted as up) -> 150 / 225.
                 {"uptime24h", 50.0},
                 {"uptime30d", 66.66},
                 {"lastCheckedAt", "2026-11-18T11:06:40.000Z"},
                 {"dailyHistory",
                  history({{"2026-10-09", "down"}, {"2026-11-16", "degraded"}, {"2026-11-18", "down"}})},
                 {"checks", json::array{json::object{{"id", p.health},
                                                     {"name", "Health"},
                                                     {"status", "operational"},
                                                     {"lastLatencyMs", 120},
                                                     {"lastCheckedAt", "2026-11-18T11:06:40.000Z"}}}}},
             json::object{{"id", p.web},
                          {"name", "Website"},
                          {"status", "no-data"},
                          {"uptime24h", nullptr},
                          {"uptime30d", nullptr},
                          {"lastCheckedAt", nullptr},
                          {"dailyHistory", history({})},
                          {"checks", json::array{json::object{{"id", p.home},
                                                              {"name", "Home"},
                                                              {"status", "no-data"},
                                                              {"lastLatencyMs", nullptr},
                                                              {"lastCheckedAt", nullptr}}}}},
             json::object{{"id", p.mail},
                          {"name", "Mail"},
                          {"status", "down"},
                          // IMAP up 75 s, SMTP down for the 60 s up to now: 75 / 135.
                          {"uptime24h", 55.55},
                          {"uptime30d", 55.55},
                          {"lastCheckedAt", "2026-11-18T11:05:40.000Z"},
                          {"dailyHistory", history({{"2026-11-18", "down"}})},
                          {"checks", mail_checks}}}},
        {"activeIncidents", json::array{}},
        {"upcomingMaintenances", json::array{}},
        {"pastIncidents", json::array{}},
        {"generatedAt", "2026-11-18T11:06:40.000Z"},
        {"windowHours", 24}};
    CHECK(r.json == json::value(expected));
    CHECK(r.json.at("components").at(0).at("dailyHistory").as_array().size() == 90);
  }

  TEST_CASE("an empty page is no-data; every component operational makes it operational") {
    StatusEdge edge;
    std::string page = edge.page();
    auto empty = edge.get("/api/v1/status/acme-status");
    CHECK(empty.json.at("overall") == "no-data");
    CHECK(empty.json.at("components").as_array().empty());
    std::string component = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    std::string check = edge.create("/pages/" + page + "/components/" + component + "/checks",
                                    R"({"name":"H","url":"https://acme.test"})");
    edge.result(check, edge.clock.now_ms(), ProbeStatus::operational);
    edge.clock.advance_ms(30'000);
    auto r = edge.get("/api/v1/status/acme-status");
    CHECK(r.json.at("overall") == "operational");
    CHECK(r.json.at("components").at(0).at("uptime24h") == 100.0);
  }

  TEST_CASE("the snapshot is public, open to every origin and cached for 30 seconds") {
    Page p;
    auto first = p.edge.get("/api/v1/status/acme-status");
    REQUIRE(first.status == 200);
    CHECK(first.header("Access-Control-Allow-Origin") == "*");
    CHECK(first.header("Cache-Control") == "public, max-age=30");
    // A result within the 30 s that leaves its check's status as it was does not show: the cached body
    // answers (IMAP was operational).
    p.edge.clock.advance_ms(29'999);
    p.edge.result(p.imap, p.edge.clock.now_ms(), ProbeStatus::operational);
    auto cached = p.edge.get("/api/v1/status/acme-status");
    CHECK(cached.body == first.body);
    // Past the 30 s the snapshot is built again.
    p.edge.clock.advance_ms(1);
    auto fresh = p.edge.get("/api/v1/status/acme-status");
    CHECK(fresh.body != first.body);
    CHECK(fresh.json.at("generatedAt") == "2026-11-18T11:07:10.000Z");
    CHECK(fresh.json.at("components").at(2).at("lastCheckedAt") == "2026-11-18T11:07:09.999Z");
    // A result that changes a check's status drops the cached snapshot at once (SMTP was down).
    p.edge.clock.advance_ms(1'000);
    p.edge.result(p.smtp, p.edge.clock.now_ms(), ProbeStatus::operational);
    auto changed = p.edge.get("/api/v1/status/acme-status");
    CHECK(changed.json.at("generatedAt") == "2026-11-18T11:07:11.000Z");
    CHECK(changed.json.at("components").at(2).at("status") == "operational");
    CHECK(changed.json.at("overall") == "operational");
    // A dashboard write to the page drops its cached snapshot at once.
    REQUIRE(p.edge.patch(kDash + "/pages/" + p.page, R"({"name":"Acme Cloud"})", p.edge.token).status == 200);
    CHECK(p.edge.get("/api/v1/status/acme-status").json.at("page").at("name") == "Acme Cloud");
  }

  TEST_CASE("the locale comes from lang, then Accept-Language, default en") {
    Page p;
    auto lang_of = [&](const std::string& query, const std::string& accept) {
      httplib::Headers headers;
      if (!accept.empty()) headers.emplace("Accept-Language", accept);
      auto r = p.edge.send("GET", "/api/v1/status/acme-status" + query, "", headers);
      REQUIRE(r.status == 200);
      return r.header("Content-Language");
    };
    CHECK(lang_of("", "") == "en");
    CHECK(lang_of("?lang=tr", "") == "tr");
    CHECK(lang_of("?lang=en", "tr-TR,tr;q=0.9") == "en");
    CHECK(lang_of("", "tr-TR,tr;q=0.9,en;q=0.8") == "tr");
    CHECK(lang_of("", "de-DE") == "en");
    CHECK(lang_of("?lang=de", "tr") == "tr");
  }

  TEST_CASE("an unknown slug answers 404 page_not_found") {
    StatusEdge edge;
    for (const char* path : {"/api/v1/status/nope", "/api/v1/status/nope/summary.json"}) {
      auto r = edge.get(path);
      INFO(path);
      CHECK(r.status == 404);
      CHECK(r.error() == "page_not_found");
      CHECK(r.header("Access-Control-Allow-Origin") == "*");
    }
  }

  TEST_CASE("summary.json maps the page in Statuspage's shape") {
    Page p;
    auto r = p.edge.get("/api/v1/status/acme-status/summary.json");
    REQUIRE(r.status == 200);
    CHECK(r.header("Access-Control-Allow-Origin") == "*");
    CHECK(r.header("Cache-Control") == "public, max-age=30");
    const std::string url = p.edge.server->app().config.status_url + "/p/acme-status";
    CHECK(r.json.at("page") == json::value(json::object{{"id", p.page},
                                                        {"name", "Acme Cloud"},
                                                        {"url", url},
                                                        {"time_zone", "Etc/UTC"},
                                                        {"updated_at", "2026-11-18T11:06:40.000Z"}}));
    // Mail: one of two probed checks down -> partial_outage -> indicator major.
    CHECK(r.json.at("status") ==
          json::value(json::object{{"indicator", "major"}, {"description", "Partial System Outage"}}));
    auto& components = r.json.at("components").as_array();
    REQUIRE(components.size() == 3);
    CHECK(components[0] == json::value(json::object{{"id", p.api},
                                                    {"name", "API"},
                                                    {"status", "operational"},
                                                    {"created_at", "2026-11-18T11:06:40.000Z"},
                                                    {"updated_at", "2026-11-18T11:06:40.000Z"},
                                                    {"position", 1},
                                                    {"description", nullptr},
                                                    {"showcase", true},
                                                    {"start_date", nullptr},
                                                    {"group_id", nullptr},
                                                    {"page_id", p.page},
                                                    {"group", false},
                                                    {"only_show_if_degraded", false}}));
    CHECK(components[1].at("status") == "operational");  // never probed: Statuspage has no "unknown"
    CHECK(components[2].at("status") == "partial_outage");
    CHECK(components[2].at("position") == 3);
    CHECK(r.json.at("incidents") == json::value(json::array{}));
    CHECK(r.json.at("scheduled_maintenances") == json::value(json::array{}));

    // Both Mail checks down -> major_outage -> critical; a slow API -> degraded_performance.
    p.edge.clock.advance_ms(30'000);
    p.edge.result(p.imap, p.edge.clock.now_ms(), ProbeStatus::down);
    p.edge.result(p.health, p.edge.clock.now_ms(), ProbeStatus::degraded, 3000);
    auto worse = p.edge.get("/api/v1/status/acme-status/summary.json");
    CHECK(worse.json.at("components").at(0).at("status") == "degraded_performance");
    CHECK(worse.json.at("components").at(2).at("status") == "major_outage");
    CHECK(worse.json.at("status") ==
          json::value(json::object{{"indicator", "critical"}, {"description", "Major System Outage"}}));
    CHECK(worse.json.at("page").at("updated_at") == "2026-11-18T11:07:10.000Z");
  }
}
