#include "edge/status/probe_worker.h"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <set>

#include "core/json.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace json = core::json;

// The members of a stored check that change how it is probed.
std::string probe_settings_text(const json::object& check) {
  json::object s;
  for (const char* member :
       {"url", "method", "intervalSeconds", "expectedStatusMin", "expectedStatusMax", "expectedBodyContains",
        "timeoutMs", "degradedLatencyMs", "insecureSkipTlsVerify"})
    if (const auto* v = check.if_contains(member)) s[member] = *v;
  return core::to_json(s);
}

// Every stored check, by id: the index names where each lives, the check record holds its settings.
core::Result<std::map<std::string, json::object>> stored_checks(App& app) {
  std::map<std::string, json::object> out;
  store::Table t = app.status_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    const std::string prefix = check_index_key("");
    txn.scan(t, prefix, [&](std::string_view key, std::string_view value) {
      auto where = core::parse_json_object(value);
      if (!where) return true;
      const std::string id(key.substr(prefix.size()));
      auto check =
          record::get_object(txn, t,
                             check_key(record::str(*where, "companyId"), record::str(*where, "pageId"),
                                       record::str(*where, "componentId"), id));
      if (check) out.emplace(id, std::move(*check));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

}  // namespace

ProbeWorker::ProbeWorker(App& app, ProbeWorkerOptions options) : app_(app), options_(std::move(options)) {}

ProbeWorker::~ProbeWorker() {
  stop();
}

void ProbeWorker::start() {
  std::lock_guard lock(mutex_);
  if (started_ || options_.workers == 0) return;
  started_ = true;
  native::probe::SchedulerOptions scheduler;
  scheduler.workers = static_cast<int>(options_.workers);
  scheduler.probe = options_.probe;
  scheduler_ = std::make_unique<native::probe::ProbeScheduler>(
      app_.clock, scheduler, [this](const native::probe::ProbeReport& report) { record(report); });
  poke_ = true;
  thread_ = std::thread([this] { loop(); });
}

void ProbeWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!started_ || stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  scheduler_->stop();
}

void ProbeWorker::sync_soon() {
  {
    std::lock_guard lock(mutex_);
    poke_ = true;
  }
  wake_.notify_all();
}

std::size_t ProbeWorker::scheduled() const {
  std::lock_guard lock(mutex_);
  return scheduler_ ? scheduler_->size() : 0;
}

core::Status ProbeWorker::sync() {
  std::lock_guard one(sync_mutex_);
  if (!scheduler_) return {};
  auto checks = stored_checks(app_);
  if (!checks) return checks.error();
  std::set<std::string> stored;
  for (const auto& [id, check] : *checks) {
    stored.insert(id);
    std::string settings = probe_settings_text(check);
    std::int64_t version;
    {
      std::lock_guard lock(mutex_);
      Known& known = known_[id];
      if (known.version > 0 && known.settings == settings) continue;
      known.settings = settings;
      version = ++known.version;
    }
    native::probe::ScheduledCheck scheduled{id, version, {}};
    scheduled.request.url = record::str(check, "url");
    scheduled.request.settings = check_settings_of(check);
    if (const auto* insecure = check.if_contains("insecureSkipTlsVerify"); insecure && insecure->is_bool())
      scheduled.request.insecure_skip_tls_verify =
          insecure->get_bool() && app_.config.status.development_mode;
    // A check the API accepted is valid; one stored by an older release that the scheduler refuses is
    // logged and left unprobed (its status stays no-data) rather than stopping the others.
    if (auto st = scheduler_->upsert(std::move(scheduled)); !st.ok())
      spdlog::warn("status: check {} is not probed: {}", id, st.error().message);
  }
  std::vector<std::string> gone;
  {
    std::lock_guard lock(mutex_);
    for (auto it = known_.begin(); it != known_.end();)
      if (!stored.contains(it->first)) {
        gone.push_back(it->first);
        it = known_.erase(it);
      } else {
        ++it;
      }
  }
  for (const auto& id : gone) scheduler_->remove(id);
  return {};
}

void ProbeWorker::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (poke_) {
      poke_ = false;
      lock.unlock();
      if (auto st = sync(); !st.ok())
        spdlog::error("status: reading the checks failed: {}", st.error().message);
      lock.lock();
      continue;
    }
    // Real time here: the reconcile period is about the process, not the injected clock of the checks.
    wake_.wait_for(lock, std::chrono::milliseconds(options_.resync_ms),
                   [this] { return stopping_ || poke_; });
    poke_ = true;
  }
}

void ProbeWorker::record(const native::probe::ProbeReport& report) {
  const core::status::ProbeOutcome& outcome = report.result.outcome;
  CheckResult result;
  result.atMs = report.startedAtMs + outcome.latencyMs;
  result.status = report.verdict.status;
  result.reason = report.verdict.reason;
  result.latencyMs = outcome.latencyMs;
  if (outcome.transport == core::status::ProbeTransport::response) result.httpStatus = outcome.httpStatus;
  // Overload made visible (honest uptime): the lateness and the runs skipped before this one are stored
  // with the result; the time they left uncovered is unknown by the coverage rule, never up.
  result.lateMs = std::max<std::int64_t>(report.late_ms(), 0);
  result.skippedRuns = report.skippedRuns;
  if (report.skippedRuns > 0)
    spdlog::warn("status: check {} skipped {} run(s): the probe workers are overloaded", report.checkId,
                 report.skippedRuns);
  auto st = append_check_result(app_, report.checkId, result);
  // A check deleted while its probe ran: nothing to record.
  if (!st.ok() && st.error().code != "check_not_found")
    spdlog::error("status: recording a result of check {} failed: {}", report.checkId, st.error().message);
}

}  // namespace edge::status
