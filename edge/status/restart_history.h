#pragma once
// Firings of restart targets and their outcomes: the check's restart history (docs/status-restart.md,
// "Firing"). A firing is recorded `pending` in the transaction that decided it (the probe result's, or the
// manual test fire's own), then moves to `firing` in a commit of its own just before the request leaves,
// and ends `succeeded` or `failed` with the outcome. One left `pending` or `firing` by a process that
// stopped is marked `interrupted` at the next start and never fired again: a restart that may or may not
// have happened is reported, not repeated.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

// What a restart worker needs to find a firing again.
struct RestartJob {
  std::string checkId, firingId, firingKey;
};

// Records a `pending` firing of `target` in `txn` (its record and the pending index). `at_ms` is when it was
// decided (the probe result's time, or now for a manual one); `consecutive_failures` the count that fired
// it (none for a manual firing). The caller commits, then executes the job.
RestartJob put_pending_firing(App& app, store::WriteTxn& txn, std::string_view company_id,
                              const json::object& target, std::int64_t at_ms, bool manual,
                              std::optional<int> consecutive_failures);

// Fires a `pending` firing's target with its secrets unsealed and records the outcome (status, detail,
// durationMs, httpStatus, exitStatus, finishedAt); an SSH target trusted on first use keeps the host key it
// learned as its pin. Blocks up to the target's timeout: never on a thread that records probe results.
// Answers the firing record as stored, nullopt when it is gone (its check was deleted meanwhile). A firing
// that is no longer pending is left alone and answered as it is: a firing is executed once.
core::Result<std::optional<json::object>> execute_firing(App& app, const RestartJob& job);

// Ends a pending firing as `failed` without firing it, with `detail` (the worker's queue was full).
core::Status fail_firing(App& app, const RestartJob& job, std::string_view detail);

// At start, before any firing of this process: every firing still `pending` or `firing` becomes
// `interrupted`. Answers how many.
core::Result<std::size_t> interrupt_unfinished_firings(App& app);

// A stored firing as the API shows it (without the company id).
json::object firing_view(const json::object& stored);

// The check's firings, newest first, at most `limit`; only `target_id`'s when it is not empty.
core::Result<std::vector<json::object>> check_firings(App& app, std::string_view check_id,
                                                      std::string_view target_id, std::size_t limit);

}  // namespace edge::status
