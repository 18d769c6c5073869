// Live updates of a public status page: GET /api/v1/status/{slug}/events opens with the current snapshot
// and sends a new one whenever page_changed reports the page (a probe result that changes a check's status,
// a dashboard write to the page), in the stream's locale; results that change no status send nothing; a
// deleted page sends `gone`; an unknown slug is 404 in the status format.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "edge/platform/event_hub.h"
#include "edge/status/live_updates.h"
#include "edge/status/page_events.h"
#include "status_support.h"

using namespace status_test;
namespace json = core::json;
using core::status::ProbeStatus;
using namespace std::chrono_literals;

namespace {

struct Event {
  std::string name;
  json::object data;
};

// Reads one event stream on its own connection until destroyed.
class StreamReader {
 public:
  StreamReader(const testing::TestEdge& edge, const std::string& path)
      : client_("127.0.0.1", edge.server->port()) {
    thread_ = std::thread([this, path] {
      client_.Get(
          path, httplib::Headers{},
          [this](const httplib::Response& r) {
            std::lock_guard lock(mutex_);
            status_ = r.status;
            content_type_ = r.get_header_value("Content-Type");
            cors_ = r.get_header_value("Access-Control-Allow-Origin");
            language_ = r.get_header_value("Content-Language");
            changed_.notify_all();
            return true;
          },
          [this](const char* data, std::size_t n) {
            std::lock_guard lock(mutex_);
            buffer_.append(data, n);
            parse_locked();
            changed_.notify_all();
            return !stopping_.load();
          });
      std::lock_guard lock(mutex_);
      ended_ = true;
      changed_.notify_all();
    });
  }
  ~StreamReader() {
    stopping_ = true;
    client_.stop();
    thread_.join();
  }

  std::optional<Event> event(std::size_t n) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 5s, [&] { return events_.size() > n || ended_; });
    if (events_.size() <= n) return std::nullopt;
    return events_[n];
  }
  // How many events arrived; waits a moment first so that a wrongly sent event would have shown up.
  std::size_t settled_count() {
    std::this_thread::sleep_for(200ms);
    std::lock_guard lock(mutex_);
    return events_.size();
  }
  int status() {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 5s, [&] { return status_ != 0 || ended_; });
    return status_;
  }
  std::string header(const std::string& which) {
    std::lock_guard lock(mutex_);
    return which == "type" ? content_type_ : which == "cors" ? cors_ : language_;
  }

 private:
  void parse_locked() {
    std::size_t end;
    while ((end = buffer_.find("\n\n")) != std::string::npos) {
      std::string block = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      Event e;
      std::string data;
      std::size_t start = 0;
      while (start <= block.size()) {
        std::size_t eol = block.find('\n', start);
        std::string line = block.substr(start, eol == std::string::npos ? std::string::npos : eol - start);
        if (line.rfind("event: ", 0) == 0) e.name = line.substr(7);
        if (line.rfind("data: ", 0) == 0) data += line.substr(6);
        if (eol == std::string::npos) break;
        start = eol + 1;
      }
      if (e.name.empty()) continue;  // a heartbeat comment
      auto parsed = core::parse_json_object(data);
      REQUIRE_MESSAGE(parsed, data);
      e.data = std::move(*parsed);
      events_.push_back(std::move(e));
    }
  }

  httplib::Client client_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string buffer_, content_type_, cors_, language_;
  std::vector<Event> events_;
  int status_ = 0;
  bool ended_ = false;
  std::atomic<bool> stopping_{false};
};

// acme-status with API (one check, operational) and Mail (one check, never probed).
struct Live {
  Live() {
    page = edge.page();
    api = edge.create("/pages/" + page + "/components", R"({"name":"API"})");
    health = edge.create("/pages/" + page + "/components/" + api + "/checks",
                         R"({"name":"Health","url":"https://acme.test/health"})");
    edge.result(health, edge.clock.now_ms(), ProbeStatus::operational);
  }
  std::size_t viewers(edge::Lang lang) {
    return edge.server->app().events.subscribers(edge::status::live_topic(page, lang));
  }
  StatusEdge edge;
  std::string page, api, health;
};

std::string component_status(const json::object& snapshot, std::size_t i) {
  return std::string(snapshot.at("components").as_array()[i].as_object().at("status").as_string());
}

}  // namespace

TEST_SUITE("status_live") {
  TEST_CASE("the stream opens with the snapshot and follows a result that changes a check's status") {
    Live l;
    StreamReader reader(l.edge, "/api/v1/status/acme-status/events");
    REQUIRE(reader.status() == 200);
    CHECK(reader.header("type") == "text/event-stream");
    CHECK(reader.header("cors") == "*");
    CHECK(reader.header("lang") == "en");
    auto first = reader.event(0);
    REQUIRE(first);
    CHECK(first->name == "snapshot");
    // The same document as the JSON route.
    auto json_route = l.edge.get("/api/v1/status/acme-status");
    CHECK(first->data == json_route.json.as_object());
    CHECK(std::string(first->data.at("overall").as_string()) == "operational");

    // A result that changes the check's status: a new snapshot, built after the change.
    l.edge.clock.advance_ms(60'000);
    l.edge.result(l.health, l.edge.clock.now_ms(), ProbeStatus::down, 5000);
    auto second = reader.event(1);
    REQUIRE(second);
    CHECK(second->name == "snapshot");
    CHECK(std::string(second->data.at("overall").as_string()) == "down");
    CHECK(component_status(second->data, 0) == "down");
    CHECK(std::string(second->data.at("generatedAt").as_string()) == "2026-11-18T11:07:40.000Z");
    // The JSON route answers the same fresh document (the cache was dropped, then refilled by the publish).
    CHECK(l.edge.get("/api/v1/status/acme-status").json.as_object() == second->data);

    // Another down result changes no status: nothing is sent.
    l.edge.clock.advance_ms(60'000);
    l.edge.result(l.health, l.edge.clock.now_ms(), ProbeStatus::down, 5000);
    CHECK(reader.settled_count() == 2);

    // Back up: one more snapshot.
    l.edge.clock.advance_ms(60'000);
    l.edge.result(l.health, l.edge.clock.now_ms(), ProbeStatus::operational);
    auto third = reader.event(2);
    REQUIRE(third);
    CHECK(std::string(third->data.at("overall").as_string()) == "operational");
  }

  TEST_CASE("each viewer gets its locale, and a dashboard write to the page reaches them") {
    Live l;
    StreamReader en(l.edge, "/api/v1/status/acme-status/events");
    StreamReader tr(l.edge, "/api/v1/status/acme-status/events?lang=tr");
    REQUIRE(en.event(0));
    REQUIRE(tr.event(0));
    CHECK(tr.header("lang") == "tr");
    CHECK(l.viewers(edge::Lang::en) == 1);
    CHECK(l.viewers(edge::Lang::tr) == 1);
    auto r = l.edge.patch(kDash + "/pages/" + l.page, R"({"branding":{"displayName":"Acme Cloud"}})",
                          l.edge.token);
    REQUIRE(r.status == 200);
    for (auto* reader : {&en, &tr}) {
      auto e = reader->event(1);
      REQUIRE(e);
      CHECK(e->name == "snapshot");
      CHECK(std::string(
                e->data.at("page").as_object().at("branding").as_object().at("displayName").as_string()) ==
            "Acme Cloud");
    }
  }

  TEST_CASE("page_changed builds a snapshot only for a locale that has viewers") {
    Live l;
    edge::App& app = l.edge.server->app();
    auto ref = edge::status::page_by_slug(app, "acme-status");
    REQUIRE(ref);
    const std::int64_t now = l.edge.clock.now_ms();
    REQUIRE(l.edge.get("/api/v1/status/acme-status").status == 200);  // fills the English entry
    REQUIRE(app.status_snapshots.get("acme-status", "en", now));
    edge::status::page_changed(app, ref->companyId, l.page);
    CHECK_FALSE(app.status_snapshots.get("acme-status", "en", now));  // dropped, nothing rebuilt
    {
      StreamReader tr(l.edge, "/api/v1/status/acme-status/events?lang=tr");
      REQUIRE(tr.event(0));
      edge::status::page_changed(app, ref->companyId, l.page);
      REQUIRE(tr.event(1));
      CHECK(app.status_snapshots.get("acme-status", "tr", now));  // built once for the Turkish viewer
      CHECK_FALSE(app.status_snapshots.get("acme-status", "en", now));
    }
  }

  TEST_CASE("a deleted page tells its viewers it is gone") {
    Live l;
    StreamReader reader(l.edge, "/api/v1/status/acme-status/events");
    REQUIRE(reader.event(0));
    REQUIRE(l.edge.del(kDash + "/pages/" + l.page, l.edge.token).status == 204);
    auto gone = reader.event(1);
    REQUIRE(gone);
    CHECK(gone->name == "gone");
    CHECK(std::string(gone->data.at("error").as_string()) == "page_not_found");
  }

  TEST_CASE("an unknown slug is 404 in the status error format") {
    StatusEdge edge;
    auto r = edge.get("/api/v1/status/nobody-here/events");
    CHECK(r.status == 404);
    CHECK(str(r.json, "error") == "page_not_found");
    CHECK(r.header("Access-Control-Allow-Origin") == "*");
  }
}
