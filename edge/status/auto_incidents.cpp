#include "edge/status/verdict_hooks.h"

namespace edge::status {

// Automatic incidents are not opened yet (issue 11): verdicts only update the check's summary.
void auto_incidents_on_verdict(App&, store::WriteTxn&, const Verdict&, AfterCommit&) {}

}  // namespace edge::status
