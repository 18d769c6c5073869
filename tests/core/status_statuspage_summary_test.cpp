#include "core/status/statuspage_summary.h"

#include <doctest/doctest.h>

#include <vector>

using namespace core::status;

namespace {
using C = ComponentStatus;
using S = StatuspageComponentStatus;
using I = StatuspageIndicator;

StatuspagePageStatus page(std::vector<S> components, std::vector<I> impacts = {}) {
  return statuspage_page_status(components, impacts);
}
}  // namespace

TEST_CASE("statuspage summary: component statuses") {
  CHECK(statuspage_component_status(C::operational, 0, 2) == S::operational);
  CHECK(statuspage_component_status(C::no_data, 0, 0) == S::operational);
  CHECK(statuspage_component_status(C::degraded, 0, 1) == S::degraded_performance);
  CHECK(statuspage_component_status(C::maintenance, 2, 2) == S::under_maintenance);
  // Down: every probed check down is a major outage, some of them a partial one.
  CHECK(statuspage_component_status(C::down, 1, 1) == S::major_outage);
  CHECK(statuspage_component_status(C::down, 2, 2) == S::major_outage);
  CHECK(statuspage_component_status(C::down, 1, 3) == S::partial_outage);
}

TEST_CASE("statuspage summary: wire names") {
  CHECK(wire_name(S::operational) == "operational");
  CHECK(wire_name(S::degraded_performance) == "degraded_performance");
  CHECK(wire_name(S::partial_outage) == "partial_outage");
  CHECK(wire_name(S::major_outage) == "major_outage");
  CHECK(wire_name(S::under_maintenance) == "under_maintenance");
  CHECK(wire_name(I::none) == "none");
  CHECK(wire_name(I::minor) == "minor");
  CHECK(wire_name(I::major) == "major");
  CHECK(wire_name(I::critical) == "critical");
}

TEST_CASE("statuspage summary: incident impacts") {
  CHECK(*parse_incident_impact("minor") == I::minor);
  CHECK(*parse_incident_impact("major") == I::major);
  CHECK(*parse_incident_impact("critical") == I::critical);
  for (auto bad : {"", "none", "Major", "severe"}) {
    auto r = parse_incident_impact(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid_impact");
  }
}

TEST_CASE("statuspage summary: page indicator and description") {
  CHECK(page({}) == StatuspagePageStatus{I::none, "All Systems Operational"});
  CHECK(page({S::operational, S::operational}) == StatuspagePageStatus{I::none, "All Systems Operational"});
  CHECK(page({S::operational, S::under_maintenance}) ==
        StatuspagePageStatus{I::none, "Service Under Maintenance"});
  CHECK(page({S::degraded_performance, S::under_maintenance}) ==
        StatuspagePageStatus{I::minor, "Minor Service Outage"});
  CHECK(page({S::partial_outage, S::degraded_performance}) ==
        StatuspagePageStatus{I::major, "Partial System Outage"});
  CHECK(page({S::major_outage, S::partial_outage}) ==
        StatuspagePageStatus{I::critical, "Major System Outage"});
  // An unresolved incident raises the indicator to its impact, never lowers it.
  CHECK(page({S::operational}, {I::major}) == StatuspagePageStatus{I::major, "Partial System Outage"});
  CHECK(page({S::major_outage}, {I::minor}) == StatuspagePageStatus{I::critical, "Major System Outage"});
  CHECK(page({S::under_maintenance}, {I::minor}) == StatuspagePageStatus{I::minor, "Minor Service Outage"});
}
