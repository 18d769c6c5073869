#pragma once
// What the HTTP load benchmarks share (restaurant_load, mail_load): client threads on keep-alive
// connections running one step in a loop for a phase, the phase's rate and latency percentiles, and the
// store's durable-commit counters.

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "edge/app.h"
#include "native/store/lmdb_store.h"

namespace bench {

using Clock = std::chrono::steady_clock;

// The configuration of a benchmark's in-process edge: loopback port 0, data in `data` (an empty folder; when
// empty, a new one under ./build named after `name`, printed), `server_threads` workers, and the per-token
// rate limit lifted so the clients measure the server, not the limiter.
inline edge::Config load_config(std::string data, const char* name, int server_threads) {
  if (data.empty()) {
    std::filesystem::create_directories("build");
    std::string tmpl = (std::filesystem::absolute("build") / (std::string(name) + "-XXXXXX")).string();
    data = ::mkdtemp(tmpl.data());
  }
  std::printf("data directory: %s\n", data.c_str());
  edge::Config config;
  config.listen_host = "127.0.0.1";
  config.listen_port = 0;
  config.data_dir = data;
  config.threads = static_cast<std::size_t>(server_threads);
  config.rate_limit = {1'000'000'000, 1000};
  spdlog::set_level(spdlog::level::warn);  // no log line per request
  return config;
}

inline double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct PhaseResult {
  std::int64_t ok = 0;
  std::int64_t failed = 0;
  double seconds = 0;
  std::vector<double> latencies_ms;
};

// Durable commits (one fsync each) and write requests so far, from the LMDB store's counters.
inline std::pair<std::uint64_t, std::uint64_t> commit_counters(edge::App& app) {
  auto* lmdb = dynamic_cast<store::LmdbStore*>(app.kv.get());
  if (!lmdb) return {0, 0};
  auto stats = lmdb->stats();
  return {stats.commits, stats.write_requests};
}

// Prints, after each phase, the durable commits and write requests the store saw since the last print.
class CommitMeter {
 public:
  explicit CommitMeter(edge::App& app) : app_(app), before_(commit_counters(app)) {}
  void print() {
    auto now = commit_counters(app_);
    std::uint64_t commits = now.first - before_.first, writes = now.second - before_.second;
    std::printf("          %llu durable commits for %llu writes: %.1f writes per fsync\n",
                static_cast<unsigned long long>(commits), static_cast<unsigned long long>(writes),
                commits ? static_cast<double>(writes) / static_cast<double>(commits) : 0.0);
    before_ = now;
  }

 private:
  edge::App& app_;
  std::pair<std::uint64_t, std::uint64_t> before_;
};

inline void report_phase(const char* name, PhaseResult& r, int clients) {
  std::sort(r.latencies_ms.begin(), r.latencies_ms.end());
  auto pct = [&](double p) {
    if (r.latencies_ms.empty()) return 0.0;
    return r.latencies_ms[std::min(r.latencies_ms.size() - 1,
                                   static_cast<std::size_t>(p * r.latencies_ms.size()))];
  };
  std::printf("%-9s clients %3d  %8lld ok  %4lld failed  %6.2f s  %9.0f /s  p50 %6.2f ms  p99 %6.2f ms\n",
              name, clients, static_cast<long long>(r.ok), static_cast<long long>(r.failed), r.seconds,
              r.ok / r.seconds, pct(0.50), pct(0.99));
}

// Runs `clients` threads; each calls `step(client, thread, i)` until it returns false or `seconds` pass.
// step answers true on success (counted), false to stop, and reports failures through `failed`.
template <class Step>
PhaseResult run_phase(int port, const std::string& token, int clients, double seconds, Step step) {
  PhaseResult total;
  std::mutex mu;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  auto start = Clock::now();
  for (int t = 0; t < clients; ++t) {
    threads.emplace_back([&, t] {
      httplib::Client c("127.0.0.1", port);
      c.set_keep_alive(true);
      c.set_tcp_nodelay(true);  // else Nagle + delayed ACK add 40 ms to every POST
      c.set_bearer_token_auth(token);
      PhaseResult mine;
      for (std::int64_t i = 0; !stop.load(std::memory_order_relaxed); ++i) {
        auto begin = Clock::now();
        int outcome = step(c, t, i);  // 1 ok, 0 failed, -1 nothing left to do
        if (outcome < 0) break;
        (outcome ? mine.ok : mine.failed) += 1;
        mine.latencies_ms.push_back(ms_since(begin));
      }
      std::lock_guard lock(mu);
      total.ok += mine.ok;
      total.failed += mine.failed;
      total.latencies_ms.insert(total.latencies_ms.end(), mine.latencies_ms.begin(), mine.latencies_ms.end());
    });
  }
  std::thread timer([&] {
    while (!stop && ms_since(start) < seconds * 1000)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop = true;
  });
  for (auto& th : threads) th.join();
  stop = true;
  timer.join();
  total.seconds = ms_since(start) / 1000;
  return total;
}

}  // namespace bench
