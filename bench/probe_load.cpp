// probe_load: the status probe scheduler (native/probe/) at scale against a local target
// (docs/performance.md, "Status probes").
//
// --checks checks at --interval seconds each, every one a GET of its own URL on a loopback target server with
// a body rule, run in real time for --seconds by a ProbeScheduler with --workers threads on the system
// clock. The target (cpp-httplib; with --https, a self-signed certificate the probes trust through a CA
// file holding the system bundle plus that certificate, so verification runs as in production) is a forked
// child, so the CPU figures of this process are the prober's alone: scheduler, libcurl, TLS client, verdicts.
//
// Prints probes/s, CPU (user+sys, getrusage) per probe, latency and lateness percentiles, skipped runs and
// the target's CPU.

#include <httplib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "native/os/system_clock.h"
#include "native/probe/probe_scheduler.h"

namespace {

double cpu_seconds(int who) {
  rusage usage{};
  getrusage(who, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

std::int64_t percentile(std::vector<std::int64_t> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
  return values[index];
}

// Runs the target in a child process that dies with this one; returns its pid once it accepts.
pid_t start_target(int port, const std::string& cert, const std::string& key) {
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    std::unique_ptr<httplib::Server> server;
    if (cert.empty()) {
      server = std::make_unique<httplib::Server>();
    } else {
      server = std::make_unique<httplib::SSLServer>(cert.c_str(), key.c_str());
    }
    server->set_tcp_nodelay(true);
    server->Get("/health", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("{\"status\":\"ok\"}", "application/json");
    });
    server->listen("127.0.0.1", port);
    _exit(0);
  }
  httplib::Client probe("127.0.0.1", port);
  for (int i = 0; i < 200; ++i) {
    if (cert.empty() ? static_cast<bool>(probe.Get("/health")) : true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!cert.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  return pid;
}

}  // namespace

int main(int argc, char** argv) {
  int checks = 1000, interval = 30, seconds = 60, workers = 16, port = 18431;
  bool https = false;
  CLI::App cli{"Status probes at scale against a local target"};
  cli.add_option("--checks", checks, "checks");
  cli.add_option("--interval", interval, "seconds between probes of one check (30..3600)");
  cli.add_option("--seconds", seconds, "how long to run");
  cli.add_option("--workers", workers, "probe worker threads");
  cli.add_option("--port", port, "target port on 127.0.0.1");
  cli.add_flag("--https", https, "TLS target; the probes verify its self-signed certificate");
  CLI11_PARSE(cli, argc, argv);

  std::string cert, key, dir, bundle;
  if (https) {
    dir = (std::filesystem::temp_directory_path() / ("probe_load_" + std::to_string(getpid()))).string();
    std::filesystem::create_directories(dir);
    cert = dir + "/cert.pem";
    key = dir + "/key.pem";
    const std::string command =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=bench"
        " -addext subjectAltName=IP:127.0.0.1 -keyout " +
        key + " -out " + cert + " 2>/dev/null";
    if (std::system(command.c_str()) != 0) return 1;
    // The trusted bundle is the system's plus this certificate: a store the size production verifies with.
    bundle = dir + "/bundle.pem";
    if (std::system(("cat /etc/ssl/certs/ca-certificates.crt " + cert + " > " + bundle).c_str()) != 0)
      return 1;
  }
  const pid_t target = start_target(port, cert, key);

  std::mutex mutex;
  std::vector<std::int64_t> latency, lateness;
  std::int64_t skipped = 0, not_operational = 0;
  native::SystemClock clock;
  native::probe::SchedulerOptions options;
  options.workers = workers;
  options.probe.ca_file = bundle;
  const std::string scheme = https ? "https" : "http";

  const double cpu_before = cpu_seconds(RUSAGE_SELF);
  const auto start = std::chrono::steady_clock::now();
  {
    native::probe::ProbeScheduler scheduler(clock, options, [&](const native::probe::ProbeReport& r) {
      std::lock_guard lock(mutex);
      latency.push_back(r.result.outcome.latencyMs);
      lateness.push_back(r.late_ms());
      skipped += r.skippedRuns;
      if (r.verdict.status != core::status::ProbeStatus::operational) ++not_operational;
    });
    for (int i = 0; i < checks; ++i) {
      native::probe::ScheduledCheck c;
      c.id = "chk_" + std::to_string(i);
      c.version = 1;
      c.request.url = scheme + "://127.0.0.1:" + std::to_string(port) + "/health?c=" + std::to_string(i);
      c.request.settings.intervalSeconds = interval;
      c.request.settings.expectedBodyContains = "\"ok\"";
      if (auto added = scheduler.upsert(c); !added) {
        std::fprintf(stderr, "probe_load: %s\n", added.error().message.c_str());
        return 1;
      }
    }
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    scheduler.stop();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds(RUSAGE_SELF) - cpu_before;
  kill(target, SIGTERM);
  waitpid(target, nullptr, 0);
  const double target_cpu = cpu_seconds(RUSAGE_CHILDREN);
  if (!dir.empty()) std::filesystem::remove_all(dir);

  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  const auto probes = static_cast<double>(latency.size());
  std::printf("checks %d, interval %d s, %s, workers %d, %.1f s\n", checks, interval, scheme.c_str(), workers,
              wall);
  std::printf("probes %zu (expected about %.0f), %.1f probes/s, not operational %lld, skipped runs %lld\n",
              latency.size(), static_cast<double>(checks) * seconds / interval, probes / wall,
              static_cast<long long>(not_operational), static_cast<long long>(skipped));
  std::printf("prober CPU %.2f s = %.0f us per probe (%.1f %% of one core); target CPU %.2f s\n", cpu,
              probes > 0 ? cpu / probes * 1e6 : 0.0, cpu / wall * 100, target_cpu);
  std::printf(
      "latency ms p50 %lld p99 %lld max %lld; late ms p50 %lld p99 %lld max %lld; max RSS %ld MiB\n",
      static_cast<long long>(percentile(latency, 0.5)), static_cast<long long>(percentile(latency, 0.99)),
      static_cast<long long>(percentile(latency, 1.0)), static_cast<long long>(percentile(lateness, 0.5)),
      static_cast<long long>(percentile(lateness, 0.99)), static_cast<long long>(percentile(lateness, 1.0)),
      self.ru_maxrss / 1024);
  return 0;
}
