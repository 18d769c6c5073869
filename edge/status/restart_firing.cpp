#include "edge/status/verdict_hooks.h"

namespace edge::status {

// Restart targets are not bound to checks yet (issue 11).
void restart_targets_on_verdict(App&, store::WriteTxn&, const Verdict&, AfterCommit&) {}

}  // namespace edge::status
