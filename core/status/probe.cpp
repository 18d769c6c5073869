#include "core/status/probe.h"

#include <cstdint>

namespace core::status {

Status validate_check_settings(const CheckSettings& s) {
  if (s.method != "GET" && s.method != "POST" && s.method != "HEAD") {
    return make_error("invalid_method", "method must be GET, POST or HEAD");
  }
  if (s.intervalSeconds < kMinIntervalSeconds || s.intervalSeconds > kMaxIntervalSeconds) {
    return make_error("invalid_interval", "intervalSeconds must be between 30 and 3600");
  }
  if (s.expectedStatusMin < kMinHttpStatus || s.expectedStatusMax > kMaxHttpStatus ||
      s.expectedStatusMin > s.expectedStatusMax) {
    return make_error("invalid_status_range",
                      "expectedStatusMin and expectedStatusMax must satisfy 100 <= min <= max <= 599");
  }
  // intervalSeconds is at most 3600 here, so the product fits in int64 (and in int).
  if (s.timeoutMs < 1 || static_cast<std::int64_t>(s.timeoutMs) > std::int64_t{s.intervalSeconds} * 1000) {
    return make_error("invalid_timeout", "timeoutMs must be positive and at most the interval");
  }
  if (s.degradedLatencyMs < 1 || s.degradedLatencyMs > s.timeoutMs) {
    return make_error("invalid_degraded_latency", "degradedLatencyMs must be positive and at most timeoutMs");
  }
  if (s.expectedBodyContains.has_value()) {
    if (s.expectedBodyContains->empty()) {
      return make_error("invalid_expected_body", "expectedBodyContains must not be empty when set");
    }
    if (s.method == "HEAD") {
      return make_error("invalid_expected_body", "a HEAD check has no body to search");
    }
  }
  return {};
}

ProbeVerdict classify_probe(const CheckSettings& s, const ProbeOutcome& o) {
  if (o.transport == ProbeTransport::error) return {ProbeStatus::down, ProbeReason::transport_error};
  if (o.transport == ProbeTransport::timeout || o.latencyMs > s.timeoutMs) {
    return {ProbeStatus::down, ProbeReason::timeout};
  }
  if (o.httpStatus < s.expectedStatusMin || o.httpStatus > s.expectedStatusMax) {
    return {ProbeStatus::down, ProbeReason::unexpected_status};
  }
  if (s.expectedBodyContains.has_value() && !o.bodyContainsExpected) {
    return {ProbeStatus::down, ProbeReason::body_mismatch};
  }
  if (o.latencyMs > s.degradedLatencyMs) return {ProbeStatus::degraded, ProbeReason::slow};
  return {ProbeStatus::operational, ProbeReason::ok};
}

std::string_view wire_name(ProbeReason reason) {
  switch (reason) {
    case ProbeReason::ok:
      return "ok";
    case ProbeReason::slow:
      return "slow";
    case ProbeReason::transport_error:
      return "transport_error";
    case ProbeReason::timeout:
      return "timeout";
    case ProbeReason::unexpected_status:
      return "unexpected_status";
    case ProbeReason::body_mismatch:
      break;
  }
  return "body_mismatch";
}

}  // namespace core::status
