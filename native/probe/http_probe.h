#pragma once
// One HTTP probe of a status-page check (spec document 3, "HTTP check"; docs/status-probes.md). This only
// measures; core::status::classify_probe judges the measurement.
//
// The contract of every probe:
// - the URL is absolute http or https, without user info; anything else is refused before any I/O;
// - timeoutMs is one overall deadline for name resolution, connect, TLS, request and the whole response: a
//   server that accepts and never answers, or trickles bytes, ends at the deadline as `timeout`;
// - TLS certificates and host names are verified against the system CA bundle unless the caller passes
//   insecure_skip_tls_verify (whether a check may set it is the API layer's decision);
// - redirects are never followed: a 3xx is a status like any other;
// - at most ProbeOptions::max_body_bytes of the body are read and searched for expectedBodyContains; a
//   longer body ends the read there (the latency is then to that point);
// - a fresh connection each time, no proxy from the environment, no compression (the body is searched as
//   sent), a User-Agent naming the platform;
// - the latency is measured on a steady clock, from the start to the complete response (or the failure).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/status/probe.h"

namespace native::probe {

inline constexpr std::size_t kDefaultMaxBodyBytes = 1024 * 1024;
inline constexpr std::string_view kUserAgent = "platform-status-probe/1";

// A check as the probe needs it: its settings (validated by core::status::validate_check_settings) and
// the two fields CheckSettings does not carry.
struct ProbeRequest {
  std::string url;
  core::status::CheckSettings settings;
  bool insecure_skip_tls_verify = false;
};

struct ProbeOptions {
  std::size_t max_body_bytes = kDefaultMaxBodyBytes;
  // A PEM file of trusted CAs instead of the system bundle; empty for the system bundle. For tests that
  // trust a self-signed certificate, and for deployments with a private CA.
  std::string ca_file;
  // When set and it becomes true, the probe gives up within about a second (libcurl's progress tick) and
  // reports `probe_cancelled`: a scheduler that stops does not wait for every deadline.
  const std::atomic<bool>* cancel = nullptr;
};

struct ProbeResult {
  core::status::ProbeOutcome outcome;
  // Why the request did not end in a response, for the check's history; empty for a response. Never holds
  // user info or request bodies (the URL has none and the probe sends none).
  std::string error;
};

// The parts of a probe URL, as the request will use them.
struct ProbeUrl {
  std::string scheme;  // `http` or `https`, lower case
  std::string host;    // without brackets for IPv6
  int port = 0;        // explicit or the scheme's default
  std::string target;  // path and query, at least "/"
};

// Errors: `probe_invalid_url` (not an absolute URL, no host, user info, a bad port),
// `probe_unsupported_scheme` (a scheme other than http and https). The fragment is dropped.
core::Result<ProbeUrl> parse_probe_url(std::string_view url);

// Performs one probe. A refused URL is an error before any I/O; otherwise the result says how the request
// ended: outcome.transport is `response`, `timeout` or `error` (with `error` filled in). A cancelled probe
// returns the error `probe_cancelled`: it measured nothing and must not be recorded. Thread-safe; never
// throws.
core::Result<ProbeResult> http_probe(const ProbeRequest& request, const ProbeOptions& options = {});

}  // namespace native::probe
