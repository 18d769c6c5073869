// status_snapshot_build: the time to build a status page's snapshot on a cache miss, reading every raw
// result of the 90 days (before the per-day rollups) against the rollups plus the few days read exactly
// (docs/performance.md, "Status snapshot build").
//
// One process, no HTTP: an App (EdgeServer, LMDB on disk in --data) with one page of --checks checks (one
// component each) probed every --interval seconds for --days days up to now, 5 % of the results down.
// The results are seeded in large transactions through the same code as append_check_result stores them
// (result record, rollup_up into the day records, summary), so the rollups are the real ones. Then each
// way is timed --runs times: load_page_data + snapshot_json, as the public route does on a cache miss.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>

#include <spdlog/spdlog.h>

#include "bench/load_phase.h"
#include "core/date.h"
#include "core/status/coverage.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/server.h"
#include "edge/status/rollup.h"
#include "edge/status/snapshot.h"
#include "edge/status/status_store.h"
#include "native/os/system_clock.h"
#include "native/os/system_random.h"

namespace {

namespace json = core::json;
namespace es = edge::status;
namespace cs = core::status;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"status_snapshot_build: snapshot build time from raw results and from rollups"};
  std::string data;
  int checks = 10, interval_s = 30, days = 90, runs = 5;
  cli.add_option("--data", data, "empty data directory (default: a new one under ./build)");
  cli.add_option("--checks", checks, "checks on the page (default 10)");
  cli.add_option("--interval", interval_s, "probe interval in seconds (default 30)");
  cli.add_option("--days", days, "days of results up to now (default 90)");
  cli.add_option("--runs", runs, "timed builds of each way (default 5)");
  CLI11_PARSE(cli, argc, argv);

  edge::Config config = bench::load_config(data, "status-snapshot-build", 2);
  config.status.probe_workers = 0;  // nothing probes: the results are seeded
  native::SystemClock clock;
  native::SystemRandom random;
  auto server = edge::EdgeServer::start(config, clock, random);
  if (!server) {
    std::cerr << "status_snapshot_build: " << server.error().message << "\n";
    return 1;
  }
  edge::App& app = (*server)->app();
  const std::string company = "cmp_bench", page_id = "pg_bench";
  const std::int64_t now = clock.now_ms();
  const std::string created = core::format_timestamp(now);
  json::object page{{"id", page_id},        {"name", "Bench"},      {"slug", "bench-status"},
                    {"createdAt", created}, {"updatedAt", created}, {"subscribersEnabled", false}};
  if (auto st = es::create_page(app, company, page); !st.ok()) {
    std::cerr << "status_snapshot_build: " << st.error().message << " (use an empty --data)\n";
    return 1;
  }
  std::vector<std::string> ids;
  for (int i = 0; i < checks; ++i) {
    const std::string component = "cmp_" + std::to_string(i), check = "chk_" + std::to_string(i);
    auto made = es::insert_record(app, es::component_key(company, page_id, component),
                                  json::object{{"id", component},
                                               {"pageId", page_id},
                                               {"name", "Component " + std::to_string(i)},
                                               {"order", i},
                                               {"createdAt", created},
                                               {"updatedAt", created}});
    if (made.ok())
      made = es::create_check(app, company, page_id,
                              json::object{{"id", check},
                                           {"componentId", component},
                                           {"name", "Check " + std::to_string(i)},
                                           {"url", "https://bench.test/" + std::to_string(i)},
                                           {"method", "GET"},
                                           {"intervalSeconds", interval_s},
                                           {"expectedStatusMin", 200},
                                           {"expectedStatusMax", 299},
                                           {"timeoutMs", 10000},
                                           {"degradedLatencyMs", 2000},
                                           {"createdAt", created},
                                           {"updatedAt", created}});
    if (!made.ok()) {
      std::cerr << "status_snapshot_build: " << made.error().message << "\n";
      return 1;
    }
    ids.push_back(check);
  }

  // Seed: per check, --days of results, 20,000 per transaction.
  auto seed_start = bench::Clock::now();
  std::mt19937_64 rng(42);
  std::int64_t total = 0;
  const std::int64_t step = static_cast<std::int64_t>(interval_s) * 1000;
  const std::int64_t cover = cs::result_cover_ms(step, 10000);
  for (const std::string& id : ids) {
    json::object summary;
    std::int64_t t = now - static_cast<std::int64_t>(days) * cs::kDayMs;
    while (t <= now) {
      auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
        for (int n = 0; n < 20000 && t <= now; ++n, t += step, ++total) {
          es::CheckResult r;
          r.atMs = t;
          r.status = rng() % 20 == 0 ? cs::ProbeStatus::down : cs::ProbeStatus::operational;
          r.latencyMs = 40;
          r.httpStatus = r.status == cs::ProbeStatus::down ? 503 : 200;
          json::object stored = es::to_json(r);
          stored["coverMs"] = cover;
          edge::record::put_object(txn, app.status_table, es::result_key(id, t), stored);
          es::roll_up(txn, app.status_table, id, summary, cs::Observation{t, r.status, cover}, cover);
          summary["status"] = cs::wire_name(r.status);
          summary["lastLatencyMs"] = r.latencyMs;
          summary["lastCheckedAtMs"] = t;
          summary["lastCheckedAt"] = core::format_timestamp(t);
          summary["consecutiveFailures"] = 0;
        }
        edge::record::put_object(txn, app.status_table, es::summary_key(id), summary);
        return {};
      });
      if (!st.ok()) {
        std::cerr << "status_snapshot_build: seeding failed: " << st.error().message << "\n";
        return 1;
      }
    }
  }
  std::printf("seeded %lld results (%d checks, every %d s, %d days) in %.1f s\n",
              static_cast<long long>(total), checks, interval_s, days, bench::ms_since(seed_start) / 1000.0);

  std::string raw_body, rolled_body;
  for (auto source : {es::TimeSource::raw, es::TimeSource::rollups}) {
    std::vector<double> times;
    std::string body;
    for (int run = 0; run < runs; ++run) {
      auto start = bench::Clock::now();
      auto p = es::page_by_slug(app, "bench-status");
      auto loaded = es::load_page_data(app, std::move(*p), now, source);
      if (!loaded) {
        std::cerr << "status_snapshot_build: " << loaded.error().message << "\n";
        return 1;
      }
      body = core::to_json(es::snapshot_json(*loaded, now, edge::Lang::en));
      times.push_back(bench::ms_since(start));
    }
    std::printf("%-8s median %.1f ms, min %.1f ms over %d builds (%zu bytes)\n",
                source == es::TimeSource::raw ? "raw" : "rollups", median(times),
                *std::min_element(times.begin(), times.end()), runs, body.size());
    (source == es::TimeSource::raw ? raw_body : rolled_body) = body;
  }
  std::printf("same snapshot both ways: %s\n", raw_body == rolled_body ? "yes" : "NO");
  (*server)->stop();
  return raw_body == rolled_body ? 0 : 1;
}
