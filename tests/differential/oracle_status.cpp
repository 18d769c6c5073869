// componentStatus, pageStatus, classifyProbe and maintenanceState answered by core/status/. The package's
// documented rules on top of the core (bindings/index.d.ts, docs/wasm.md "Status-page rules"):
// - an unknown status fails with the core's message, prefixed with the entry (`checkStatuses[1]: ...`);
// - settings members left out or null take CheckSettings{}'s defaults; one that is not an int is out of
//   range, so validate_check_settings refuses it at its own turn with the core's message;
// - invalid_probe_outcome is the package's code for an outcome the core cannot represent;
// - times are safe integers, else invalid_timestamp naming the member.

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "core/status/component.h"
#include "core/status/maintenance.h"
#include "core/status/probe.h"
#include "core/status/status.h"
#include "tests/differential/oracle.h"

namespace oracle {
namespace {

namespace st = core::status;

template <class Status, class Parse>
core::Result<std::vector<Status>> statuses(const json::value& js, const char* name, Parse parse) {
  std::vector<Status> out;
  const json::array& items = js.as_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto parsed = parse(text(items[i]));
    if (!parsed) {
      return core::make_error(parsed.error().code,
                              std::string(name) + "[" + std::to_string(i) + "]: " + parsed.error().message);
    }
    out.push_back(*parsed);
  }
  return out;
}

json::value component_status(const json::array& args) {
  auto checks = statuses<st::CheckStatus>(arg(args, 0), "checkStatuses", st::parse_check_status);
  if (!checks) return fail(checks.error());
  return ok(json::string(st::wire_name(st::component_status(*checks, arg(args, 1).as_bool()))));
}

json::value page_status(const json::array& args) {
  auto components =
      statuses<st::ComponentStatus>(arg(args, 0), "componentStatuses", st::parse_component_status);
  if (!components) return fail(components.error());
  return ok(json::string(st::wire_name(st::overall_status(*components))));
}

// A settings number: the default when null or absent; INT_MIN (below every accepted range) when it is not
// an int the core could hold.
int setting(const json::value& settings, const char* name, int fallback) {
  const json::value& js = member(settings, name);
  if (js.is_null()) return fallback;
  return js_int(js).value_or(std::numeric_limits<int>::min());
}

json::value classify_probe(const json::array& args) {
  const json::value& js = arg(args, 0);
  st::CheckSettings s;
  if (!member(js, "method").is_null()) s.method = text(member(js, "method"));
  s.intervalSeconds = setting(js, "intervalSeconds", s.intervalSeconds);
  s.expectedStatusMin = setting(js, "expectedStatusMin", s.expectedStatusMin);
  s.expectedStatusMax = setting(js, "expectedStatusMax", s.expectedStatusMax);
  s.timeoutMs = setting(js, "timeoutMs", s.timeoutMs);
  s.degradedLatencyMs = setting(js, "degradedLatencyMs", s.degradedLatencyMs);
  if (!member(js, "expectedBodyContains").is_null())
    s.expectedBodyContains = text(member(js, "expectedBodyContains"));
  if (auto valid = st::validate_check_settings(s); !valid) return fail(valid.error());

  const json::value& o = arg(args, 1);
  st::ProbeOutcome outcome;
  const std::string transport = text(member(o, "transport"));
  if (transport == "response")
    outcome.transport = st::ProbeTransport::response;
  else if (transport == "timeout")
    outcome.transport = st::ProbeTransport::timeout;
  else if (transport == "error")
    outcome.transport = st::ProbeTransport::error;
  else
    return fail("invalid_probe_outcome", "outcome.transport must be response, timeout or error");
  if (!member(o, "httpStatus").is_null()) {
    // The core holds an HTTP status in an int: an integer beyond it is refused like a fraction.
    auto status = js_int(member(o, "httpStatus"));
    if (!status) return fail("invalid_probe_outcome", "outcome.httpStatus must be an integer");
    outcome.httpStatus = *status;
  }
  const JsNumber latency = js_number(member(o, "latencyMs"));
  if (!latency.safe || latency.value < 0) {
    return fail("invalid_probe_outcome", "outcome.latencyMs must be an integer >= 0");
  }
  outcome.latencyMs = latency.value;
  if (!member(o, "bodyContainsExpected").is_null())
    outcome.bodyContainsExpected = member(o, "bodyContainsExpected").as_bool();

  const st::ProbeVerdict verdict = st::classify_probe(s, outcome);
  return ok(
      json::object{{"status", st::wire_name(verdict.status)}, {"reason", st::wire_name(verdict.reason)}});
}

json::value invalid_timestamp(const std::string& field) {
  return fail("invalid_timestamp", field + " must be a safe integer of Unix milliseconds");
}

json::value maintenance_state(const json::array& args) {
  const json::value& w = arg(args, 0);
  st::MaintenanceWindow window;
  for (auto [name, slot] :
       {std::pair{"scheduledStartMs", &window.scheduledStartMs}, std::pair{"endMs", &window.endMs}}) {
    const JsNumber n = js_number(member(w, name));
    if (!n.safe) return invalid_timestamp(std::string("window.") + name);
    *slot = n.value;
  }
  for (auto [name, slot] :
       {std::pair{"startedAtMs", &window.startedAtMs}, std::pair{"completedAtMs", &window.completedAtMs},
        std::pair{"cancelledAtMs", &window.cancelledAtMs}}) {
    if (member(w, name).is_null()) continue;
    const JsNumber n = js_number(member(w, name));
    if (!n.safe) return invalid_timestamp(std::string("window.") + name);
    *slot = n.value;
  }
  const JsNumber now = js_number(arg(args, 1));
  if (!now.safe) return invalid_timestamp("nowMs");
  return ok(json::string(st::wire_name(st::maintenance_state(window, now.value))));
}

constexpr std::array kFunctions = {
    Function{"componentStatus", &component_status},
    Function{"pageStatus", &page_status},
    Function{"classifyProbe", &classify_probe},
    Function{"maintenanceState", &maintenance_state},
};

}  // namespace

std::span<const Function> status_functions() {
  return kFunctions;
}

}  // namespace oracle
