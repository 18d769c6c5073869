#include "edge/status/restart_history.h"

#include <deque>

#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/restart_settings.h"
#include "edge/status/restart_store.h"
#include "native/restart/deploy_target.h"
#include "native/restart/http_target.h"
#include "native/restart/ssh_target.h"

namespace edge::status {
namespace {

namespace cs = core::status;

constexpr std::string_view kPending = "pending", kFiring = "firing", kSucceeded = "succeeded",
                           kFailed = "failed", kInterrupted = "interrupted";

json::value optional_int(const std::optional<int>& v) {
  return v ? json::value(*v) : json::value(nullptr);
}

// Ends `firing` with `status` and `detail`; the outcome members are set by the caller when there is one.
void finish(App& app, json::object& firing, std::string_view status, std::string_view detail) {
  firing["status"] = status;
  firing["detail"] = detail;
  firing["finishedAt"] = core::format_timestamp(app.clock.now_ms());
}

native::restart::RestartOutcome fire(const RestartSettings& settings) {
  return std::visit(
      [](const auto& t) {
        using T = std::decay_t<decltype(t)>;
        if constexpr (std::is_same_v<T, cs::HttpRestartTarget>) return native::restart::fire_http(t);
        if constexpr (std::is_same_v<T, cs::SshRestartTarget>) return native::restart::fire_ssh(t);
        if constexpr (std::is_same_v<T, cs::DeployRestartTarget>) return native::restart::fire_deploy(t);
      },
      settings);
}

// An SSH target trusted on first use keeps the key it met, unless a pin was set meanwhile.
void store_learned_host_key(App& app, store::WriteTxn& txn, const std::string& key,
                            std::string_view fingerprint, std::int64_t now_ms) {
  auto target = record::get_object(txn, app.status_table, key);
  if (!target || record::str(*target, "type") != cs::wire_name(cs::RestartTargetType::ssh)) return;
  auto* settings = target->if_contains("settings");
  if (settings == nullptr || !settings->is_object()) return;
  json::object& s = settings->as_object();
  if (!record::str(s, "hostKeyFingerprint").empty()) return;
  s["hostKeyFingerprint"] = fingerprint;
  (*target)["updatedAt"] = core::format_timestamp(now_ms);
  record::put_object(txn, app.status_table, key, *target);
}

}  // namespace

RestartJob put_pending_firing(App& app, store::WriteTxn& txn, std::string_view company_id,
                              const json::object& target, std::int64_t at_ms, bool manual,
                              std::optional<int> consecutive_failures) {
  RestartJob job;
  job.checkId = record::str(target, "checkId");
  job.firingId = core::make_id("fir_", app.random);
  job.firingKey = firing_key(job.checkId, at_ms, job.firingId);
  json::object firing{{"id", job.firingId},
                      {"checkId", job.checkId},
                      {"pageId", record::str(target, "pageId")},
                      {"companyId", company_id},
                      {"targetId", record::str(target, "id")},
                      {"targetName", record::str(target, "name")},
                      {"type", record::str(target, "type")},
                      {"manual", manual},
                      {"consecutiveFailures", optional_int(consecutive_failures)},
                      {"status", kPending},
                      {"firedAt", core::format_timestamp(at_ms)},
                      {"startedAt", nullptr},
                      {"finishedAt", nullptr},
                      {"durationMs", nullptr},
                      {"detail", nullptr},
                      {"httpStatus", nullptr},
                      {"exitStatus", nullptr}};
  record::put_object(txn, app.status_table, job.firingKey, firing);
  record::put_object(txn, app.status_table, pending_firing_key(job.checkId, job.firingId),
                     json::object{{"key", job.firingKey}});
  return job;
}

core::Result<std::optional<json::object>> execute_firing(App& app, const RestartJob& job) {
  const store::Table t = app.status_table;
  const std::string pending_key = pending_firing_key(job.checkId, job.firingId);
  // Take the firing: pending -> firing, durably, before anything is sent.
  std::optional<json::object> firing, target;
  std::string target_key;
  bool take = false;
  auto taken = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    take = false;
    target.reset();
    firing = record::get_object(txn, t, job.firingKey);
    if (!firing || record::str(*firing, "status") != kPending) return {};
    target_key = restart_key(record::str(*firing, "companyId"), record::str(*firing, "pageId"),
                             record::str(*firing, "targetId"));
    target = record::get_object(txn, t, target_key);
    if (!target) {
      finish(app, *firing, kFailed, "not fired: the target was deleted");
      txn.erase(t, pending_key);
    } else {
      (*firing)["status"] = kFiring;
      (*firing)["startedAt"] = core::format_timestamp(app.clock.now_ms());
      take = true;
    }
    record::put_object(txn, t, job.firingKey, *firing);
    return {};
  });
  if (!taken.ok()) return taken.error();
  if (!take) return firing;

  native::restart::RestartOutcome outcome;
  auto settings = load_settings(app, target_key, *target);
  const bool opened = settings.ok();
  if (opened) outcome = fire(*settings);

  auto recorded = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    firing = record::get_object(txn, t, job.firingKey);
    if (!firing) return {};  // the check was deleted while its target fired
    if (!opened) {
      finish(app, *firing, kFailed, "not fired: the target's secrets could not be opened");
    } else {
      finish(app, *firing, outcome.ok ? kSucceeded : kFailed, outcome.detail);
      (*firing)["durationMs"] = outcome.durationMs;
      (*firing)["httpStatus"] = optional_int(outcome.httpStatus);
      (*firing)["exitStatus"] = optional_int(outcome.exitStatus);
      if (outcome.hostKeyLearned)
        store_learned_host_key(app, txn, target_key, outcome.hostKeyFingerprint, app.clock.now_ms());
    }
    record::put_object(txn, t, job.firingKey, *firing);
    txn.erase(t, pending_key);
    return {};
  });
  if (!recorded.ok()) return recorded.error();
  return firing;
}

core::Status fail_firing(App& app, const RestartJob& job, std::string_view detail) {
  const store::Table t = app.status_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto firing = record::get_object(txn, t, job.firingKey);
    if (!firing || record::str(*firing, "status") != kPending) return {};
    finish(app, *firing, kFailed, detail);
    record::put_object(txn, t, job.firingKey, *firing);
    txn.erase(t, pending_firing_key(job.checkId, job.firingId));
    return {};
  });
}

core::Result<std::size_t> interrupt_unfinished_firings(App& app) {
  const store::Table t = app.status_table;
  std::size_t count = 0;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    count = 0;
    std::vector<std::pair<std::string, std::string>> pending;  // index key, firing key
    txn.scan(t, "fire-pending/", [&](std::string_view key, std::string_view value) {
      auto o = core::parse_json_object(value);
      pending.emplace_back(std::string(key), o ? record::str(*o, "key") : std::string());
      return true;
    });
    for (auto& [index_key, key] : pending) {
      txn.erase(t, index_key);
      auto firing = record::get_object(txn, t, key);
      if (!firing) continue;
      const std::string status = record::str(*firing, "status");
      if (status == kPending)
        finish(app, *firing, kInterrupted, "not fired: the edge stopped before the firing started");
      else if (status == kFiring)
        finish(app, *firing, kInterrupted, "outcome unknown: the edge stopped during the firing");
      else
        continue;
      record::put_object(txn, t, key, *firing);
      ++count;
    }
    return {};
  });
  if (!st.ok()) return st.error();
  return count;
}

json::object firing_view(const json::object& stored) {
  json::object out = stored;
  out.erase("companyId");
  return out;
}

core::Result<std::vector<json::object>> check_firings(App& app, std::string_view check_id,
                                                      std::string_view target_id, std::size_t limit) {
  std::deque<json::object> kept;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    kept.clear();
    txn.scan(app.status_table, firing_prefix(check_id), [&](std::string_view, std::string_view value) {
      auto o = core::parse_json_object(value);
      if (!o || (!target_id.empty() && record::str(*o, "targetId") != target_id)) return true;
      kept.push_front(firing_view(*o));  // newest first
      if (limit > 0 && kept.size() > limit) kept.pop_back();
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  return std::vector<json::object>(std::make_move_iterator(kept.begin()),
                                   std::make_move_iterator(kept.end()));
}

}  // namespace edge::status
