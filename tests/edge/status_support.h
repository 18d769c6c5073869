#pragma once
// What the status API tests share: the dashboard paths of acme, a token with status.manage, creating
// pages, components and checks, and recording probe results through the store API the probe worker uses.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status/probe.h"
#include "edge/app.h"
#include "edge/status/status_store.h"
#include "test_edge.h"

namespace status_test {

inline const std::string kDash = "/api/v1/dashboard/companies/acme";

// A configuration whose rate limit never refuses (the manual clock never refills the bucket).
inline edge::Config unthrottled() {
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  // These suites write results by hand; the probe worker has its own suite (status_probe_worker_test.cpp).
  c.status.probe_workers = 0;
  // Events stay in the outbox, where the suites read them; the subscriber suites drive the worker by hand.
  c.status.subscriber_workers = 0;
  return c;
}

inline std::string str(const core::json::value& v, std::string_view key) {
  return std::string(v.as_object().at(key).as_string());
}

// A test edge with an acme token holding status.manage (the seeded tokens have no status permission).
struct StatusEdge : testing::TestEdge {
  explicit StatusEdge(edge::Config config = unthrottled())
      : testing::TestEdge(std::move(config)), token(token_with("acme", {"status.manage"})) {}

  // POSTs `body` to kDash + `path`; the new record's id. Stops the test unless the answer is 201.
  std::string create(const std::string& path, const std::string& body) {
    auto r = post(kDash + path, body, token);
    INFO(path << " " << r.body);
    REQUIRE(r.status == 201);
    return str(r.json, "id");
  }

  std::string page(const std::string& slug = "acme-status") {
    return create("/pages", R"({"name":"Acme","slug":")" + slug + R"("})");
  }

  // Records one probe result as the probe worker does.
  void result(const std::string& check_id, std::int64_t at_ms, core::status::ProbeStatus status,
              std::int64_t latency_ms = 100) {
    edge::status::CheckResult r;
    r.atMs = at_ms;
    r.status = status;
    r.reason = status == core::status::ProbeStatus::down       ? core::status::ProbeReason::unexpected_status
               : status == core::status::ProbeStatus::degraded ? core::status::ProbeReason::slow
                                                               : core::status::ProbeReason::ok;
    r.latencyMs = latency_ms;
    r.httpStatus = status == core::status::ProbeStatus::down ? 503 : 200;
    auto st = edge::status::append_check_result(server->app(), check_id, r);
    REQUIRE(st.ok());
  }

  std::string token;
};

}  // namespace status_test
