// The `platform_status` ES module (status entry of bindings/): the status-page rules of core/status/, so that
// browser embeds and JS apps compute exactly what the server does. It backs the status embed badge, whose
// wasm and JS must stay small (docs/wasm.md): only core/status/ and libsodium's HMAC-SHA256 are reachable
// from here, no JSON.
//
// Contract with bindings/status.js, as in tokens_module.cpp (answers `{ok: true, value}` or
// `{ok: false, code, message}` with the core's code; functions that cannot fail answer the plain value;
// nothing throws into JS), plus:
// - Webhook bodies and secrets arrive as bytes: bindings/status.js encodes a JS string with TextEncoder (the
//   UTF-8 bytes fetch and Buffer.from send, a lone surrogate becoming U+FFFD) and passes a Uint8Array as it
//   is; embind copies either into std::string.
// - Statuses are the wire names (`operational`, `degraded`, `down`, `maintenance`, `no-data`), parsed with
//   the core's parse_check_status / parse_component_status (`invalid_status`, the message naming the entry).
// - Check settings and probe outcomes are plain objects the bindings have type-checked and copied; members
//   the caller left out arrive as null and take the core's defaults (CheckSettings{}, ProbeOutcome{}).
//   A settings number that is not a safe integer goes to the core as an out-of-range stand-in, so it fails
//   with that member's code in the core's order.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/status/component.h"
#include "core/status/maintenance.h"
#include "core/status/probe.h"
#include "core/status/status.h"
#include "core/status/webhook.h"
#include "wasm/js_result.h"

namespace {

using emscripten::val;
using platform_wasm::error_result;
using platform_wasm::length_of;
using platform_wasm::ok_result;
using platform_wasm::safe_int;
using platform_wasm::safe_integer;

namespace st = core::status;

core::Error named(const core::Error& error, const std::string& where) {
  return core::make_error(error.code, where + ": " + error.message);
}

// --- webhooks ----------------------------------------------------------------------------------------------

// `sha256=` and 64 lower-case hex digits of HMAC-SHA256(secret, body). Cannot fail.
std::string sign_webhook(const std::string& raw_body, const std::string& secret) {
  return st::sign_webhook(raw_body, secret);
}

// null when the header value signs the body. Errors: malformed_signature, invalid_signature.
val verify_webhook_signature(const std::string& header_value, const std::string& raw_body,
                             const std::string& secret) {
  auto status = st::verify_webhook(header_value, raw_body, secret);
  if (!status) return error_result(status.error());
  return ok_result(val::null());
}

// --- component and page status -----------------------------------------------------------------------------

// The component's status as a wire name. Errors: invalid_status (the first unknown entry, named).
val component_status(const val& js_checks, bool in_maintenance) {
  std::vector<st::CheckStatus> checks;
  const std::size_t count = length_of(js_checks);
  checks.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    auto parsed = st::parse_check_status(js_checks[i].as<std::string>());
    if (!parsed) return error_result(named(parsed.error(), "checkStatuses[" + std::to_string(i) + "]"));
    checks.push_back(*parsed);
  }
  return ok_result(val(std::string(st::wire_name(st::component_status(checks, in_maintenance)))));
}

// The page's overall status as a wire name. Errors: invalid_status (the first unknown entry, named).
val page_status(const val& js_components) {
  std::vector<st::ComponentStatus> components;
  const std::size_t count = length_of(js_components);
  components.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    auto parsed = st::parse_component_status(js_components[i].as<std::string>());
    if (!parsed) {
      return error_result(named(parsed.error(), "componentStatuses[" + std::to_string(i) + "]"));
    }
    components.push_back(*parsed);
  }
  return ok_result(val(std::string(st::wire_name(st::overall_status(components)))));
}

// --- probes ------------------------------------------------------------------------------------------------

// A settings member that is an int in the core: the default when null, the stand-in (which the core refuses
// at this member's check) when not a safe integer.
int int_member(const val& object, const char* name, int fallback, int stand_in) {
  const val item = object[name];
  if (item.isNull()) return fallback;
  return safe_int(item.as<double>()).value_or(stand_in);
}

st::CheckSettings read_settings(const val& js) {
  st::CheckSettings settings;
  if (!js["method"].isNull()) settings.method = js["method"].as<std::string>();
  settings.intervalSeconds = int_member(js, "intervalSeconds", settings.intervalSeconds, -1);
  settings.expectedStatusMin = int_member(js, "expectedStatusMin", settings.expectedStatusMin, -1);
  settings.expectedStatusMax = int_member(js, "expectedStatusMax", settings.expectedStatusMax, -1);
  settings.timeoutMs = int_member(js, "timeoutMs", settings.timeoutMs, 0);
  settings.degradedLatencyMs = int_member(js, "degradedLatencyMs", settings.degradedLatencyMs, 0);
  if (!js["expectedBodyContains"].isNull()) {
    settings.expectedBodyContains = js["expectedBodyContains"].as<std::string>();
  }
  return settings;
}

core::Error invalid_outcome(const std::string& message) {
  return core::make_error("invalid_probe_outcome", message);
}

core::Result<st::ProbeOutcome> read_outcome(const val& js) {
  st::ProbeOutcome outcome;
  const std::string transport = js["transport"].as<std::string>();
  if (transport == "response") {
    outcome.transport = st::ProbeTransport::response;
  } else if (transport == "timeout") {
    outcome.transport = st::ProbeTransport::timeout;
  } else if (transport == "error") {
    outcome.transport = st::ProbeTransport::error;
  } else {
    return invalid_outcome("outcome.transport must be response, timeout or error");
  }
  if (!js["httpStatus"].isNull()) {
    auto status = safe_int(js["httpStatus"].as<double>());
    if (!status) return invalid_outcome("outcome.httpStatus must be an integer");
    outcome.httpStatus = *status;
  }
  auto latency = safe_integer(js["latencyMs"].as<double>());
  if (!latency || *latency < 0) return invalid_outcome("outcome.latencyMs must be an integer >= 0");
  outcome.latencyMs = *latency;
  if (!js["bodyContainsExpected"].isNull())
    outcome.bodyContainsExpected = js["bodyContainsExpected"].as<bool>();
  return outcome;
}

// {status, reason}. Errors: the settings' (validate_check_settings, in its order), then
// invalid_probe_outcome.
val classify_probe(const val& js_settings, const val& js_outcome) {
  const st::CheckSettings settings = read_settings(js_settings);
  if (auto status = st::validate_check_settings(settings); !status) return error_result(status.error());
  auto outcome = read_outcome(js_outcome);
  if (!outcome) return error_result(outcome.error());
  const st::ProbeVerdict verdict = st::classify_probe(settings, *outcome);
  val value = val::object();
  value.set("status", std::string(st::wire_name(verdict.status)));
  value.set("reason", std::string(st::wire_name(verdict.reason)));
  return ok_result(value);
}

// --- maintenance windows -----------------------------------------------------------------------------------

core::Error invalid_timestamp(const std::string& field) {
  return core::make_error("invalid_timestamp", field + " must be a safe integer of Unix milliseconds");
}

// The window `{scheduledStartMs, endMs, startedAtMs, completedAtMs, cancelledAtMs}` (the last three null when
// the action was not taken) at now_ms, as a wire name. Errors: invalid_timestamp for a time that is not a
// safe integer (window members in that order, then nowMs).
val maintenance_state(const val& js_window, double now_ms) {
  st::MaintenanceWindow window;
  struct Required {
    const char* name;
    std::int64_t* member;
  };
  for (const Required& item :
       {Required{"scheduledStartMs", &window.scheduledStartMs}, Required{"endMs", &window.endMs}}) {
    auto time = safe_integer(js_window[item.name].as<double>());
    if (!time) return error_result(invalid_timestamp(std::string("window.") + item.name));
    *item.member = *time;
  }
  struct Optional {
    const char* name;
    std::optional<std::int64_t>* member;
  };
  for (const Optional& item :
       {Optional{"startedAtMs", &window.startedAtMs}, Optional{"completedAtMs", &window.completedAtMs},
        Optional{"cancelledAtMs", &window.cancelledAtMs}}) {
    const val js_time = js_window[item.name];
    if (js_time.isNull()) continue;
    auto time = safe_integer(js_time.as<double>());
    if (!time) return error_result(invalid_timestamp(std::string("window.") + item.name));
    *item.member = *time;
  }
  auto now = safe_integer(now_ms);
  if (!now) return error_result(invalid_timestamp("nowMs"));
  return ok_result(val(std::string(st::wire_name(st::maintenance_state(window, *now)))));
}

}  // namespace

EMSCRIPTEN_BINDINGS(platform_status) {
  emscripten::function("signWebhook", &sign_webhook);
  emscripten::function("verifyWebhookSignature", &verify_webhook_signature);
  emscripten::function("componentStatus", &component_status);
  emscripten::function("pageStatus", &page_status);
  emscripten::function("classifyProbe", &classify_probe);
  emscripten::function("maintenanceState", &maintenance_state);
}
