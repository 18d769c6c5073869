// The env vault's change log (docs/env-vault.md, "Change log"): GET /api/env-vault/changes?since=N as JSON,
// as a long poll (wait=S) that answers as soon as a push commits, and as Server-Sent Events that start with
// the changes after N and then carry every new version in order; key names only, never values.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "vault_support.h"

using namespace vault_test;
using namespace std::chrono_literals;

TEST_SUITE_BEGIN("vault");

namespace {

struct Event {
  std::string name;
  json::object data;
};

// Reads one event stream on its own connection until destroyed.
class StreamReader {
 public:
  StreamReader(const testing::TestEdge& edge, const std::string& path, const std::string& token)
      : client_("127.0.0.1", edge.server->port()) {
    thread_ = std::thread([this, path, token] {
      client_.Get(
          path, httplib::Headers{{"Authorization", "Bearer " + token}, {"Accept", "text/event-stream"}},
          [this](const httplib::Response& r) {
            std::lock_guard lock(mutex_);
            content_type_ = r.get_header_value("Content-Type");
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
  // The `n`th event (from 0), waiting up to five seconds for it.
  std::optional<Event> event(std::size_t n) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 5s, [&] { return events_.size() > n || ended_; });
    if (events_.size() <= n) return std::nullopt;
    return events_[n];
  }
  std::string content_type() {
    std::lock_guard lock(mutex_);
    return content_type_;
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
      if (!parsed) continue;
      e.data = std::move(*parsed);
      events_.push_back(std::move(e));
    }
  }

  httplib::Client client_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string buffer_, content_type_;
  std::vector<Event> events_;
  bool ended_ = false;
  std::atomic<bool> stopping_{false};
};

}  // namespace

TEST_CASE("vault changes: the log after a version, in order, key names only") {
  VaultEdge t;
  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"A":"secret-a","B":"secret-b"}})").status == 200);
  REQUIRE(t.push(tok, R"({"variables":{"A":"secret-a2"}})").status == 200);
  REQUIRE(t.push(tok, R"({"variables":{"C":"c"},"prune":true})").status == 200);

  auto all = t.edge.get("/api/env-vault/changes", tok);
  REQUIRE(all.status == 200);
  CHECK(num(all.data(), "version") == 3);
  const auto& list = all.data().at("changes").as_array();
  REQUIRE(list.size() == 3);
  CHECK(num(list[0], "version") == 1);
  CHECK(num(list[2], "version") == 3);
  CHECK(core::to_json(list[1].at("changed")) == R"(["A"])");
  CHECK(core::to_json(list[2].at("removed")) == R"(["A","B"])");
  CHECK(all.body.find("secret") == std::string::npos);

  auto after2 = t.edge.get("/api/env-vault/changes?since=2", tok);
  REQUIRE(after2.data().at("changes").as_array().size() == 1);
  CHECK(num(after2.data().at("changes").as_array()[0], "version") == 3);
  auto none = t.edge.get("/api/env-vault/changes?since=3", tok);
  CHECK(none.data().at("changes").as_array().empty());
  CHECK(none.header("X-Vault-Version") == "3");

  CHECK(t.edge.get("/api/env-vault/changes?since=-1", tok).status == 400);
  CHECK(t.edge.get("/api/env-vault/changes?since=x", tok).status == 400);
  auto long_wait = t.edge.get("/api/env-vault/changes?wait=31", tok);
  CHECK(long_wait.status == 400);
  CHECK(long_wait.error() == "'wait' must be a number of seconds from 0 to 30");
  CHECK(t.edge.get("/api/env-vault/changes", t.token("production", "public")).status == 403);
}

TEST_CASE("vault changes: a long poll answers when a push commits") {
  VaultEdge t;
  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"A":"1"}})").status == 200);
  auto waiting = std::async(std::launch::async, [&] {
    httplib::Client c("127.0.0.1", t.edge.server->port());
    c.set_read_timeout(40, 0);
    return c.Get("/api/env-vault/changes?since=1&wait=30", {{"Authorization", "Bearer " + tok}});
  });
  // The poll has nothing yet: it must still be waiting a moment later.
  CHECK(waiting.wait_for(300ms) == std::future_status::timeout);
  const auto started = std::chrono::steady_clock::now();
  REQUIRE(t.push(tok, R"({"variables":{"B":"2"}})").status == 200);
  REQUIRE(waiting.wait_for(10s) == std::future_status::ready);
  auto res = waiting.get();
  REQUIRE(res);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
  CHECK(res->status == 200);
  auto body = core::parse_json(res->body);
  REQUIRE(body.ok());
  const auto& changes = body->at("data").at("changes").as_array();
  REQUIRE(changes.size() == 1);
  CHECK(num(changes[0], "version") == 2);
  CHECK(core::to_json(changes[0].at("added")) == R"(["B"])");
}

TEST_CASE("vault changes: Server-Sent Events replay after `since`, then follow every new version") {
  VaultEdge t;
  const std::string tok = t.token();
  REQUIRE(t.push(tok, R"({"variables":{"A":"1"}})").status == 200);
  REQUIRE(t.push(tok, R"({"variables":{"B":"2"}})").status == 200);
  StreamReader reader(t.edge, "/api/env-vault/changes?since=1", tok);
  auto first = reader.event(0);
  REQUIRE(first);
  CHECK(first->name == "change");
  CHECK(num(first->data, "version") == 2);
  auto ready = reader.event(1);
  REQUIRE(ready);
  CHECK(ready->name == "ready");
  CHECK(num(ready->data, "version") == 2);
  CHECK(reader.content_type().rfind("text/event-stream", 0) == 0);

  REQUIRE(t.push(tok, R"({"variables":{"C":"3"}})").status == 200);
  auto next = reader.event(2);
  REQUIRE(next);
  CHECK(next->name == "change");
  CHECK(num(next->data, "version") == 3);
  CHECK(core::to_json(next->data.at("added")) == R"(["C"])");

  // Another environment's pushes do not reach this stream; a rollback does.
  const std::string staging = t.token("staging");
  REQUIRE(t.push(staging, R"({"variables":{"S":"x"}})").status == 200);
  REQUIRE(
      t.edge
          .post(t.project_path() + "/environments/production/rollback", R"({"version":1})", t.edge.acme_token)
          .status == 201);
  auto rb = reader.event(3);
  REQUIRE(rb);
  CHECK(num(rb->data, "version") == 4);
  CHECK(str(rb->data, "kind") == "rollback");
}

TEST_SUITE_END();
