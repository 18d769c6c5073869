#pragma once
// What the incident, maintenance and automatic-incident suites share: an edge whose maintenance ticker
// thread is off (tests call tick() with the manual clock), a page with two components, and the outbox
// records (`ev/`) read straight from the store.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/date.h"
#include "edge/status/maintenance_ticker.h"
#include "edge/status/status_store.h"
#include "status_support.h"

namespace status_test {

inline edge::Config quiet() {
  edge::Config c = unthrottled();
  c.status.maintenance_tick_ms = 0;
  return c;
}

// acme-status with components API and Website.
struct IncidentPage {
  IncidentPage() : edge(quiet()) {
    page = edge.page();
    api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    web = edge.create("/pages/" + page + "/components", R"({"name":"Website"})");
  }
  std::string base() const { return kDash + "/pages/" + page; }
  // Every event in the outbox, oldest first.
  std::vector<core::json::object> events() {
    auto all = edge::status::list_records(edge.server->app(), "ev/");
    REQUIRE(all.ok());
    return *all;
  }
  int tick() {
    auto n = edge.server->app().status_maintenance->tick(edge.clock.now_ms());
    REQUIRE(n.ok());
    return *n;
  }
  std::int64_t now() { return edge.clock.now_ms(); }
  StatusEdge edge;
  std::string page, api, web;
};

// A string as a JSON value, to compare with members: json::value has no operator== for std::string.
inline core::json::value J(const std::string& s) {
  return core::json::value(s);
}

}  // namespace status_test
