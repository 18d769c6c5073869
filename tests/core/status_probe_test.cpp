#include "core/status/probe.h"

#include <doctest/doctest.h>

#include "core/status/status.h"

using namespace core::status;

namespace {
std::string code_of(const CheckSettings& s) {
  auto r = validate_check_settings(s);
  return r.ok() ? "" : r.error().code;
}
ProbeOutcome response(int status, std::int64_t latency, bool body = true) {
  return ProbeOutcome{ProbeTransport::response, status, latency, body};
}
}  // namespace

TEST_CASE("status: wire names and parsing") {
  CHECK(wire_name(CheckStatus::operational) == "operational");
  CHECK(wire_name(CheckStatus::degraded) == "degraded");
  CHECK(wire_name(CheckStatus::down) == "down");
  CHECK(wire_name(CheckStatus::no_data) == "no-data");
  CHECK(wire_name(ProbeStatus::operational) == "operational");
  CHECK(wire_name(ProbeStatus::degraded) == "degraded");
  CHECK(wire_name(ProbeStatus::down) == "down");
  CHECK(wire_name(ComponentStatus::operational) == "operational");
  CHECK(wire_name(ComponentStatus::degraded) == "degraded");
  CHECK(wire_name(ComponentStatus::down) == "down");
  CHECK(wire_name(ComponentStatus::maintenance) == "maintenance");
  CHECK(wire_name(ComponentStatus::no_data) == "no-data");
  CHECK(to_check_status(ProbeStatus::operational) == CheckStatus::operational);
  CHECK(to_check_status(ProbeStatus::degraded) == CheckStatus::degraded);
  CHECK(to_check_status(ProbeStatus::down) == CheckStatus::down);

  CHECK(*parse_check_status("no-data") == CheckStatus::no_data);
  CHECK(*parse_check_status("down") == CheckStatus::down);
  CHECK(parse_check_status("maintenance").error().code == "invalid_status");
  CHECK(parse_check_status("no_data").error().code == "invalid_status");
  CHECK(parse_check_status("Down").error().code == "invalid_status");
  CHECK(*parse_component_status("maintenance") == ComponentStatus::maintenance);
  CHECK(*parse_component_status("operational") == ComponentStatus::operational);
  CHECK(parse_component_status("").error().code == "invalid_status");
}

TEST_CASE("status: check settings validation, in order, with stable codes") {
  CheckSettings s;
  CHECK(code_of(s) == "");
  CHECK(s.expectedStatusMin == 200);
  CHECK(s.expectedStatusMax == 299);

  for (const char* m : {"GET", "POST", "HEAD"}) {
    CheckSettings t;
    t.method = m;
    CHECK(code_of(t) == "");
  }
  for (const char* m : {"get", "PUT", "DELETE", "", "GET "}) {
    CheckSettings t;
    t.method = m;
    CHECK(code_of(t) == "invalid_method");
  }

  auto interval = [](int seconds) {
    CheckSettings t;
    t.intervalSeconds = seconds;
    t.timeoutMs = 1000;
    t.degradedLatencyMs = 500;
    return code_of(t);
  };
  CHECK(interval(29) == "invalid_interval");
  CHECK(interval(30) == "");
  CHECK(interval(3600) == "");
  CHECK(interval(3601) == "invalid_interval");
  CHECK(interval(-30) == "invalid_interval");

  auto range = [](int min, int max) {
    CheckSettings t;
    t.expectedStatusMin = min;
    t.expectedStatusMax = max;
    return code_of(t);
  };
  CHECK(range(100, 599) == "");
  CHECK(range(301, 301) == "");
  CHECK(range(99, 299) == "invalid_status_range");
  CHECK(range(200, 600) == "invalid_status_range");
  CHECK(range(300, 299) == "invalid_status_range");

  auto timeout = [](int interval_s, int timeout_ms) {
    CheckSettings t;
    t.intervalSeconds = interval_s;
    t.timeoutMs = timeout_ms;
    t.degradedLatencyMs = 1;
    return code_of(t);
  };
  CHECK(timeout(30, 0) == "invalid_timeout");
  CHECK(timeout(30, -1) == "invalid_timeout");
  CHECK(timeout(30, 1) == "");
  CHECK(timeout(30, 30000) == "");
  CHECK(timeout(30, 30001) == "invalid_timeout");

  auto degraded = [](int latency) {
    CheckSettings t;
    t.timeoutMs = 5000;
    t.degradedLatencyMs = latency;
    return code_of(t);
  };
  CHECK(degraded(0) == "invalid_degraded_latency");
  CHECK(degraded(1) == "");
  CHECK(degraded(5000) == "");
  CHECK(degraded(5001) == "invalid_degraded_latency");

  CheckSettings body;
  body.expectedBodyContains = "ok";
  CHECK(code_of(body) == "");
  body.expectedBodyContains = "";
  CHECK(code_of(body) == "invalid_expected_body");
  body.expectedBodyContains = "ok";
  body.method = "HEAD";
  CHECK(code_of(body) == "invalid_expected_body");

  // The first failing rule is reported.
  CheckSettings many;
  many.method = "PUT";
  many.intervalSeconds = 1;
  many.expectedStatusMin = 0;
  CHECK(code_of(many) == "invalid_method");
  many.method = "GET";
  CHECK(code_of(many) == "invalid_interval");
  many.intervalSeconds = 60;
  many.timeoutMs = 0;
  CHECK(code_of(many) == "invalid_status_range");
}

TEST_CASE("status: probe classification") {
  CheckSettings s;  // 200..299, timeout 10000, degraded over 2000, no body rule
  CHECK(classify_probe(s, response(200, 120)) == ProbeVerdict{ProbeStatus::operational, ProbeReason::ok});
  CHECK(classify_probe(s, response(299, 2000)) == ProbeVerdict{ProbeStatus::operational, ProbeReason::ok});
  CHECK(classify_probe(s, response(204, 2001)) == ProbeVerdict{ProbeStatus::degraded, ProbeReason::slow});
  CHECK(classify_probe(s, response(200, 10000)) == ProbeVerdict{ProbeStatus::degraded, ProbeReason::slow});
  CHECK(classify_probe(s, response(200, 10001)) == ProbeVerdict{ProbeStatus::down, ProbeReason::timeout});
  CHECK(classify_probe(s, response(199, 5)) ==
        ProbeVerdict{ProbeStatus::down, ProbeReason::unexpected_status});
  CHECK(classify_probe(s, response(300, 5)) ==
        ProbeVerdict{ProbeStatus::down, ProbeReason::unexpected_status});
  CHECK(classify_probe(s, response(503, 5)) ==
        ProbeVerdict{ProbeStatus::down, ProbeReason::unexpected_status});
  // Without a body rule the body flag is ignored.
  CHECK(classify_probe(s, response(200, 5, false)) ==
        ProbeVerdict{ProbeStatus::operational, ProbeReason::ok});

  ProbeOutcome timed_out{ProbeTransport::timeout, 0, 10000, false};
  CHECK(classify_probe(s, timed_out) == ProbeVerdict{ProbeStatus::down, ProbeReason::timeout});
  ProbeOutcome failed{ProbeTransport::error, 0, 3, false};
  CHECK(classify_probe(s, failed) == ProbeVerdict{ProbeStatus::down, ProbeReason::transport_error});
  // A transport error wins over every other reading, even a status that looks fine.
  ProbeOutcome failed_200{ProbeTransport::error, 200, 20000, true};
  CHECK(classify_probe(s, failed_200).reason == ProbeReason::transport_error);

  CheckSettings body = s;
  body.expectedBodyContains = "\"ok\":true";
  CHECK(classify_probe(body, response(200, 5, true)) ==
        ProbeVerdict{ProbeStatus::operational, ProbeReason::ok});
  CHECK(classify_probe(body, response(200, 5, false)) ==
        ProbeVerdict{ProbeStatus::down, ProbeReason::body_mismatch});
  // A missing body string is down even when slow; a wrong status is reported before the body.
  CHECK(classify_probe(body, response(200, 3000, false)).reason == ProbeReason::body_mismatch);
  CHECK(classify_probe(body, response(500, 5, false)).reason == ProbeReason::unexpected_status);
  // Timeout is reported before the status.
  CHECK(classify_probe(body, response(500, 10001, false)).reason == ProbeReason::timeout);

  CheckSettings redirect = s;
  redirect.expectedStatusMin = 301;
  redirect.expectedStatusMax = 302;
  CHECK(classify_probe(redirect, response(301, 5)).status == ProbeStatus::operational);
  CHECK(classify_probe(redirect, response(200, 5)).status == ProbeStatus::down);

  CHECK(wire_name(ProbeReason::ok) == "ok");
  CHECK(wire_name(ProbeReason::slow) == "slow");
  CHECK(wire_name(ProbeReason::transport_error) == "transport_error");
  CHECK(wire_name(ProbeReason::timeout) == "timeout");
  CHECK(wire_name(ProbeReason::unexpected_status) == "unexpected_status");
  CHECK(wire_name(ProbeReason::body_mismatch) == "body_mismatch");
}
