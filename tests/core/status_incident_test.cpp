#include "core/status/incident.h"

#include <doctest/doctest.h>

using namespace core::status;

TEST_CASE("status: incident status wire names") {
  for (IncidentStatus s : {IncidentStatus::investigating, IncidentStatus::identified,
                           IncidentStatus::monitoring, IncidentStatus::resolved})
    CHECK(parse_incident_status(wire_name(s)).value() == s);
  CHECK(wire_name(IncidentStatus::monitoring) == "monitoring");
  CHECK(parse_incident_status("Resolved").error().code == "invalid_incident_status");
  CHECK(parse_incident_status("").error().code == "invalid_incident_status");
  CHECK(parse_incident_status("postmortem").error().code == "invalid_incident_status");
}

TEST_CASE("status: incident updates move forward only and stop at resolved") {
  using S = IncidentStatus;
  // The spec's rows: investigating -> identified -> monitoring -> resolved.
  CHECK(check_incident_update(S::investigating, S::identified).ok());
  CHECK(check_incident_update(S::identified, S::monitoring).ok());
  CHECK(check_incident_update(S::monitoring, S::resolved).ok());
  // A further update in the same status, and skipping forward.
  CHECK(check_incident_update(S::investigating, S::investigating).ok());
  CHECK(check_incident_update(S::investigating, S::resolved).ok());
  CHECK(check_incident_update(S::identified, S::resolved).ok());
  // Backwards.
  CHECK(check_incident_update(S::monitoring, S::identified).error().code == "invalid_incident_transition");
  CHECK(check_incident_update(S::identified, S::investigating).error().code == "invalid_incident_transition");
  // Resolved is final, whatever follows.
  for (S next : {S::investigating, S::identified, S::monitoring, S::resolved})
    CHECK(check_incident_update(S::resolved, next).error().code == "incident_resolved");
}
