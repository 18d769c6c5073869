#pragma once
// HTTP probe checks (spec document 3, "HTTP check" and the Check rows of "States and transitions"):
// validating a check's settings and classifying one probe's outcome. The worker performs the request and
// measures it; this only judges the measurements, so the edge and the browser agree on every verdict.

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "core/status/status.h"

namespace core::status {

inline constexpr int kMinIntervalSeconds = 30;  // Limits: check interval 30 to 3600 seconds
inline constexpr int kMaxIntervalSeconds = 3600;
inline constexpr int kDefaultExpectedStatusMin = 200;  // Limits: default expected status range 200 to 299
inline constexpr int kDefaultExpectedStatusMax = 299;
inline constexpr int kMinHttpStatus = 100;  // the range of HTTP status codes (RFC 9110 §15)
inline constexpr int kMaxHttpStatus = 599;
// Defaults the spec leaves open: a 10 s timeout and "slow" past 2 s.
inline constexpr int kDefaultTimeoutMs = 10000;
inline constexpr int kDefaultDegradedLatencyMs = 2000;

struct CheckSettings {
  std::string method = "GET";  // `GET`, `POST` or `HEAD`, upper case (methods are case-sensitive)
  int intervalSeconds = 60;
  int expectedStatusMin = kDefaultExpectedStatusMin;
  int expectedStatusMax = kDefaultExpectedStatusMax;
  // When set, a response whose body lacks this text is down. Unset means "no body rule".
  std::optional<std::string> expectedBodyContains;
  int timeoutMs = kDefaultTimeoutMs;
  int degradedLatencyMs = kDefaultDegradedLatencyMs;
};

// Checked in this order; the first failure is returned.
// Errors:
//  - `invalid_method` unless the method is exactly `GET`, `POST` or `HEAD`;
//  - `invalid_interval` unless 30 <= intervalSeconds <= 3600;
//  - `invalid_status_range` unless 100 <= expectedStatusMin <= expectedStatusMax <= 599;
//  - `invalid_timeout` unless 1 <= timeoutMs <= intervalSeconds * 1000 (a probe ends before the next);
//  - `invalid_degraded_latency` unless 1 <= degradedLatencyMs <= timeoutMs;
//  - `invalid_expected_body` when expectedBodyContains is set but empty (it would match every body; unset
//    it instead) or set on a `HEAD` check (a HEAD response has no body, so the check could never pass).
Status validate_check_settings(const CheckSettings& settings);

// How the request ended.
enum class ProbeTransport {
  response,  // an HTTP response arrived (any status)
  timeout,   // no complete response within timeoutMs
  error,     // DNS, connection, TLS or protocol failure
};

struct ProbeOutcome {
  ProbeTransport transport = ProbeTransport::response;
  int httpStatus = 0;          // meaningful for `response` only
  std::int64_t latencyMs = 0;  // time to the complete response, >= 0
  // Whether the body contained expectedBodyContains; ignored when the check has no body rule.
  bool bodyContainsExpected = false;
};

// Why a probe got its verdict; `ok` for operational, `slow` for degraded, the rest for down.
enum class ProbeReason { ok, slow, transport_error, timeout, unexpected_status, body_mismatch };

struct ProbeVerdict {
  ProbeStatus status = ProbeStatus::operational;
  ProbeReason reason = ProbeReason::ok;

  friend bool operator==(const ProbeVerdict&, const ProbeVerdict&) = default;
};

// The first matching rule wins:
//   transport error -> down/transport_error; timeout, or a response whose latency exceeds timeoutMs
//   (strictly) -> down/timeout; status outside [expectedStatusMin, expectedStatusMax] ->
//   down/unexpected_status; a body rule that did not match -> down/body_mismatch; latency strictly over
//   degradedLatencyMs -> degraded/slow; otherwise operational/ok.
// Precondition: validate_check_settings(settings) succeeded.
ProbeVerdict classify_probe(const CheckSettings& settings, const ProbeOutcome& outcome);

// `ok`, `slow`, `transport_error`, `timeout`, `unexpected_status`, `body_mismatch`.
std::string_view wire_name(ProbeReason reason);

}  // namespace core::status
