// The verdict hook of restart targets (edge/status/verdict_hooks.h; docs/status-restart.md, "Firing"):
// inside the transaction that stores a check's newest result, each target bound to the check advances its
// core::status::RestartState with feed_restart; a firing it decides is recorded pending in the same
// transaction and handed to the restart worker once the commit is durable. Nothing is sent from here.

#include <utility>
#include <vector>

#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/restart_history.h"
#include "edge/status/restart_store.h"
#include "edge/status/restart_worker.h"
#include "edge/status/status_store.h"
#include "edge/status/verdict_hooks.h"

namespace edge::status {

void restart_targets_on_verdict(App& app, store::WriteTxn& txn, const Verdict& verdict, AfterCommit& after) {
  const store::Table t = app.status_table;
  const std::string prefix = restart_check_prefix(verdict.checkId);
  std::vector<std::pair<std::string, json::object>> bound;  // target id, index entry
  txn.scan(t, prefix, [&](std::string_view key, std::string_view value) {
    if (auto where = core::parse_json_object(value))
      bound.emplace_back(std::string(key.substr(prefix.size())), std::move(*where));
    return true;
  });
  for (auto& [target_id, where] : bound) {
    const std::string company_id = record::str(where, "companyId");
    auto target =
        record::get_object(txn, t, restart_key(company_id, record::str(where, "pageId"), target_id));
    if (!target) continue;
    const auto binding = binding_of(*target);
    if (!core::status::validate_restart_binding(binding).ok()) continue;
    const std::string state_key = restart_state_key(target_id);
    const auto state = restart_state_of(record::get_object(txn, t, state_key).value_or(json::object{}));
    const auto step = core::status::feed_restart(binding, state, verdict.result.atMs, verdict.result.status);
    if (step.state != state) record::put_object(txn, t, state_key, to_json(step.state));
    if (!step.fire) continue;
    RestartJob job = put_pending_firing(app, txn, company_id, *target, verdict.result.atMs, false,
                                        step.state.consecutiveFailures);
    after.push_back([&app, job = std::move(job)]() mutable {
      if (app.status_restarts) app.status_restarts->submit(std::move(job));
    });
  }
}

}  // namespace edge::status
