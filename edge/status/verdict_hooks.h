#pragma once
// What follows a probe verdict beyond the check's own summary: the automatic incident of its component
// (edge/status/auto_incidents.cpp) and the restart targets bound to the check
// (edge/status/restart_firing.cpp).
//
// Contract: append_check_result calls each hook inside the write transaction that stores the result, and
// only for the check's newest result (a late, older one changes nothing), so the state machines of
// core/status advance exactly with the stored results, across crashes. A hook keeps its state in `txn`
// and never does I/O there: work that must follow the commit (firing a restart target, telling viewers)
// goes into `after`, which runs once the commit is durable, on the recording thread. The transaction may
// be retried, so a hook must not touch anything but `txn` and `after` (which is cleared between attempts).

#include <functional>
#include <string_view>
#include <vector>

#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

struct CheckResult;

struct Verdict {
  std::string_view companyId, pageId, componentId, checkId;
  const CheckResult& result;
  // The check's status before this result (`no-data` before its first), to notice changes.
  std::string_view previousStatus;
};

using AfterCommit = std::vector<std::function<void()>>;

void auto_incidents_on_verdict(App& app, store::WriteTxn& txn, const Verdict& verdict, AfterCommit& after);
void restart_targets_on_verdict(App& app, store::WriteTxn& txn, const Verdict& verdict, AfterCommit& after);

}  // namespace edge::status
