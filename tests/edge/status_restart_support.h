#pragma once
// What the restart target suites share: a page with one component and one check, the restart-targets
// paths, the check's firing history, waiting for the restart worker, and restarting the edge on the same
// data directory.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "edge/platform/record_json.h"
#include "edge/status/restart_worker.h"
#include "status_support.h"

namespace restart_test {

using status_test::kDash;
using status_test::str;
namespace json = core::json;

inline constexpr auto kDown = core::status::ProbeStatus::down;
inline constexpr auto kUp = core::status::ProbeStatus::operational;
inline constexpr std::int64_t kMinute = 60'000;

struct RestartEdge : status_test::StatusEdge {
  explicit RestartEdge(edge::Config config = status_test::unthrottled())
      : StatusEdge(config), config(config) {
    page_id = page();
    component_id = create("/pages/" + page_id + "/components", R"({"name":"API"})");
    check_id = create(checks_path(), R"({"name":"Health","url":"http://127.0.0.1:9/health"})");
  }

  std::string checks_path() const { return "/pages/" + page_id + "/components/" + component_id + "/checks"; }
  // The dashboard path of the page's restart targets, from kDash on.
  std::string targets() const { return kDash + "/pages/" + page_id + "/restart-targets"; }
  std::string target(const std::string& id) const { return targets() + "/" + id; }

  // Creates a target bound to the check; its id. Stops the test unless the answer is 201.
  std::string add_target(const std::string& body) {
    auto r = post(targets(), body, token);
    INFO(r.body);
    REQUIRE(r.status == 201);
    return str(r.json, "id");
  }

  // The check's firing history, newest first.
  json::array firings(const std::string& check) {
    auto r = get(
        kDash + "/pages/" + page_id + "/components/" + component_id + "/checks/" + check + "/firings", token);
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.json.as_array();
  }
  json::array firings() { return firings(check_id); }

  // Records a probe result of the check (as the probe worker does), then waits until the restart worker
  // has executed every firing it decided.
  void verdict(std::int64_t at_ms, core::status::ProbeStatus status) {
    result(check_id, at_ms, status);
    drain();
  }
  void drain() { server->app().status_restarts->drain(); }

  // Stops the edge and starts it again on the same data directory with `next` (a crash leaves the same
  // store behind: every commit is durable and nothing else is kept).
  void restart(edge::Config next) {
    client.reset();
    server->stop();
    server.reset();
    next.listen_host = "127.0.0.1";
    next.listen_port = 0;
    next.data_dir = dir.path + "/data";
    next.threads = 16;
    auto started = edge::EdgeServer::start(next, clock, random);
    REQUIRE_MESSAGE(started.ok(), (started.ok() ? "" : started.error().message));
    server = std::move(*started);
    client = std::make_unique<httplib::Client>("127.0.0.1", server->port());
    client->set_keep_alive(true);
    client->set_tcp_nodelay(true);
  }

  // Every byte of the LMDB data file.
  std::string store_bytes() const {
    std::ifstream in(dir.path + "/data/data.mdb", std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }

  edge::Config config;
  std::string page_id, component_id, check_id;
};

// A JSON string as a std::string, anything else as its JSON text (for comparisons with strings).
inline std::string text(const json::value& v) {
  return v.is_string() ? std::string(v.get_string()) : core::to_json(v);
}

// A JSON string literal of `text` (for PEM keys with newlines).
inline std::string quoted(const std::string& text) {
  return core::to_json(json::value(text));
}

}  // namespace restart_test
