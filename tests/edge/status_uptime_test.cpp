// Honest uptime in the edge (docs/status-rules.md, "Honest uptime"): the per-day rollups give the same
// snapshot as every raw result, a gap while the edge was down is unknown time, overload is recorded, and
// checks stored before rollups existed still work.

#include <doctest/doctest.h>

#include <random>
#include <set>

#include "core/date.h"
#include "edge/platform/record_json.h"
#include "edge/status/rollup.h"
#include "edge/status/snapshot.h"
#include "status_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;

namespace {

constexpr std::int64_t kS = 1000;
constexpr std::int64_t kMinute = 60 * kS;
constexpr std::int64_t kHour = 60 * kMinute;
constexpr std::int64_t kDay = 24 * kHour;

json::object snapshot(StatusEdge& edge, std::int64_t now_ms, edge::status::TimeSource source) {
  auto page = edge::status::page_by_slug(edge.server->app(), "acme-status");
  REQUIRE(page);
  auto data = edge::status::load_page_data(edge.server->app(), std::move(*page), now_ms, source);
  REQUIRE(data);
  return edge::status::snapshot_json(*data, now_ms, edge::Lang::en);
}

// Results of one check from `from` to `to`: mostly at the interval (60 s, with up to 20 s of jitter, so
// some steps pass the 75 s cover), some gaps of minutes to hours, a few of days; 70 % operational,
// 15 % degraded, 15 % down.
void random_timeline(StatusEdge& edge, const std::string& check, std::mt19937_64& rng, std::int64_t from,
                     std::int64_t to) {
  std::uniform_int_distribution<int> pct(0, 99);
  for (std::int64_t t = from; t < to;) {
    const int s = pct(rng);
    edge.result(check, t,
                s < 70   ? ProbeStatus::operational
                : s < 85 ? ProbeStatus::degraded
                         : ProbeStatus::down);
    const int kind = pct(rng);
    if (kind < 60)
      t += 60 * kS + std::uniform_int_distribution<std::int64_t>(0, 20 * kS)(rng);
    else if (kind < 95)
      t += std::uniform_int_distribution<std::int64_t>(10 * kMinute, 6 * kHour)(rng);
    else
      t += std::uniform_int_distribution<std::int64_t>(kDay, 2 * kDay)(rng);
  }
}

}  // namespace

TEST_SUITE("status_uptime") {
  TEST_CASE("snapshots from rollups equal those from every raw result, over random timelines") {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      StatusEdge edge;
      std::mt19937_64 rng(seed);
      std::string page = edge.page();
      std::string a = edge.create("/pages/" + page + "/components", R"({"name":"A"})");
      std::string b = edge.create("/pages/" + page + "/components", R"({"name":"B"})");
      std::vector<std::string> checks;
      for (const auto& [component, name] :
           std::vector<std::pair<std::string, std::string>>{{a, "a1"}, {a, "a2"}, {b, "b1"}})
        checks.push_back(
            edge.create("/pages/" + page + "/components/" + component + "/checks",
                        R"({"name":")" + name + R"(","url":"https://acme.test/)" + name + R"("})"));
      const std::int64_t now = edge.clock.now_ms();
      // Starting before the 90-day history, some checks ending before now (an open tail crossing days).
      for (std::size_t i = 0; i < checks.size(); ++i)
        random_timeline(edge, checks[i], rng, now - 95 * kDay + static_cast<std::int64_t>(i) * kHour,
                        now - static_cast<std::int64_t>(i) * 2 * kDay);
      for (std::int64_t later : {std::int64_t{0}, 37 * kMinute, 26 * kHour, 3 * kDay + 5 * kHour}) {
        INFO("seed " << seed << ", now + " << later);
        json::object rolled = snapshot(edge, now + later, edge::status::TimeSource::rollups);
        json::object raw = snapshot(edge, now + later, edge::status::TimeSource::raw);
        CHECK(json::value(rolled) == json::value(raw));
        // The comparison is not vacuous: uptimes were observed and the history has every kind of day.
        const json::array& comps = rolled.at("components").as_array();
        CHECK(comps.at(0).at("uptime30d").is_double());
        std::set<std::string> kinds;
        for (auto& d : comps.at(0).at("dailyHistory").as_array())
          kinds.insert(std::string(d.at("status").as_string()));
        CHECK(kinds.count("down") == 1);
        CHECK(kinds.size() >= 3);
      }
    }
  }

  TEST_CASE("a gap while the edge was down is unknown time, never up") {
    StatusEdge edge;
    std::string page = edge.page();
    std::string api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    std::string check = edge.create("/pages/" + page + "/components/" + api + "/checks",
                                    R"({"name":"H","url":"https://acme.test/","intervalSeconds":30})");
    const std::int64_t now = edge.clock.now_ms();  // 2026-11-18T11:06:40Z
    // Every 30 s (cover 45 s) for an hour, one down; then the edge is down for two hours; then 30 minutes.
    const std::int64_t start = now - 4 * kHour;
    for (std::int64_t t = start; t < start + kHour; t += 30 * kS)
      edge.result(check, t, t == start + 10 * kMinute ? ProbeStatus::down : ProbeStatus::operational);
    for (std::int64_t t = start + 3 * kHour; t <= start + 3 * kHour + 30 * kMinute; t += 30 * kS)
      edge.result(check, t, ProbeStatus::operational);
    // Time, not beats: up 90 min 30 s (each result until the next, the last of each run for its 45 s
    // cover), down 30 s; the two hours in between count neither way.
    auto snap = edge.get("/api/v1/status/acme-status");
    REQUIRE(snap.status == 200);
    const std::int64_t up_ms = 60 * kMinute - 30 * kS + 15 * kS + 30 * kMinute + 45 * kS;
    const double expected = static_cast<double>(up_ms * 10000 / (up_ms + 30 * kS)) / 100.0;
    CHECK(snap.json.at("components").at(0).at("uptime24h") == expected);
    CHECK(expected == 99.45);
    // The report shows the gap: 1 h 59 min 45 s after the 45 s cover, and from the last result's cover
    // to now (29 min 15 s).
    auto sla = edge.get(kDash + "/pages/" + page + "/sla?from=2026-11-18&to=2026-11-18", edge.token);
    REQUIRE(sla.status == 200);
    CHECK(sla.json.at("components").at(0).at("unknownMinutes") == 119.75 + 29.25);
    CHECK(sla.json.at("components").at(0).at("downMinutes") == 0.5);
    CHECK(sla.json.at("components").at(0).at("upMinutes") == 90.5);
  }

  TEST_CASE("overload is recorded: lateness and skipped runs stay with the result") {
    StatusEdge edge;
    std::string page = edge.page();
    std::string api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    std::string check = edge.create("/pages/" + page + "/components/" + api + "/checks",
                                    R"({"name":"H","url":"https://acme.test/"})");
    edge::status::CheckResult r;
    r.atMs = edge.clock.now_ms() - kMinute;
    r.latencyMs = 80;
    r.httpStatus = 200;
    REQUIRE(edge::status::append_check_result(edge.server->app(), check, r).ok());
    r.atMs = edge.clock.now_ms();
    r.lateMs = 12'000;
    r.skippedRuns = 2;
    REQUIRE(edge::status::append_check_result(edge.server->app(), check, r).ok());
    auto results = edge.get(kDash + "/pages/" + page + "/components/" + api + "/checks/" + check + "/results",
                            edge.token);
    REQUIRE(results.status == 200);
    CHECK(results.json == json::value(json::array{json::object{{"at", "2026-11-18T11:06:40.000Z"},
                                                               {"status", "operational"},
                                                               {"reason", "ok"},
                                                               {"latencyMs", 80},
                                                               {"httpStatus", 200},
                                                               {"lateMs", 12000},
                                                               {"skippedRuns", 2}},
                                                  json::object{{"at", "2026-11-18T11:05:40.000Z"},
                                                               {"status", "operational"},
                                                               {"reason", "ok"},
                                                               {"latencyMs", 80},
                                                               {"httpStatus", 200}}}));
  }

  TEST_CASE("checks stored before rollups: read from raw results, rebuilt once at their next result") {
    StatusEdge edge;
    std::mt19937_64 rng(7);
    std::string page = edge.page();
    std::string api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    std::string check = edge.create("/pages/" + page + "/components/" + api + "/checks",
                                    R"({"name":"H","url":"https://acme.test/"})");
    const std::int64_t now = edge.clock.now_ms();
    random_timeline(edge, check, rng, now - 40 * kDay, now - kHour);
    const json::object reference = snapshot(edge, now, edge::status::TimeSource::raw);
    // Make it look like an older release stored it: no rollups, a summary without the rollup members,
    // results without coverMs.
    edge::App& app = edge.server->app();
    REQUIRE(app.kv
                ->write([&](store::WriteTxn& txn) -> core::Status {
                  edge::status::erase_rollups(txn, app.status_table, check);
                  auto sum =
                      edge::record::get_object(txn, app.status_table, edge::status::summary_key(check));
                  for (const char* m : {"firstCheckedAtMs", "lastCoverMs", "rollupFromMs"}) sum->erase(m);
                  edge::record::put_object(txn, app.status_table, edge::status::summary_key(check), *sum);
                  std::vector<std::pair<std::string, json::object>> results;
                  txn.scan(app.status_table, edge::status::result_prefix(check),
                           [&](std::string_view key, std::string_view value) {
                             auto o = core::parse_json_object(value);
                             o->erase("coverMs");
                             results.emplace_back(std::string(key), std::move(*o));
                             return true;
                           });
                  for (auto& [key, o] : results) edge::record::put_object(txn, app.status_table, key, o);
                  return {};
                })
                .ok());
    CHECK(json::value(snapshot(edge, now, edge::status::TimeSource::rollups)) == json::value(reference));
    // The next result rebuilds the rollups; from then on they agree with the raw results again.
    edge.result(check, now, ProbeStatus::down);
    auto rollups = edge::record::read_objects(*app.kv, app.status_table, edge::status::rollup_prefix(check));
    REQUIRE(rollups);
    CHECK(rollups->size() >= 30);
    const std::int64_t later = now + 2 * kHour;
    CHECK(json::value(snapshot(edge, later, edge::status::TimeSource::rollups)) ==
          json::value(snapshot(edge, later, edge::status::TimeSource::raw)));
    // Deleting the check removes its rollups with its results.
    REQUIRE(
        edge.del(kDash + "/pages/" + page + "/components/" + api + "/checks/" + check, edge.token).status ==
        204);
    CHECK(edge::record::read_objects(*app.kv, app.status_table, edge::status::rollup_prefix(check))->empty());
  }
}
