// The counter board live (GET /orders/board/events): the first event is a snapshot of the branch's open
// orders; every committed write to an order of that branch follows as an `order` event carrying the order
// as stored; other branches' orders, replays and refused writes send nothing; the checks of GET
// /orders/board come first (401, 422, 404 for a branch the token cannot see).

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "edge/app.h"
#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;
using namespace std::chrono_literals;

namespace {

struct Event {
  std::string name, id;
  json::object data;
};

// Reads one event stream on its own connection until destroyed; parses events as they arrive.
class StreamReader {
 public:
  StreamReader(const TestEdge& edge, const std::string& path, const std::string& token)
      : client_("127.0.0.1", edge.server->port()) {
    thread_ = std::thread([this, path, token] {
      auto res = client_.Get(
          path, httplib::Headers{{"Authorization", "Bearer " + token}},
          [this](const httplib::Response& r) {
            std::lock_guard lock(mutex_);
            status_ = r.status;
            content_type_ = r.get_header_value("Content-Type");
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

  // The `n`th event (from 0), waiting up to five seconds for it.
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
        if (line.rfind("id: ", 0) == 0) e.id = line.substr(4);
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
  std::string buffer_, content_type_;
  std::vector<Event> events_;
  int status_ = 0;
  bool ended_ = false;
  std::atomic<bool> stopping_{false};
};

struct Board {
  TestEdge edge{unthrottled()};
  std::string branch, other_branch, tea;

  std::string make(const std::string& path, const std::string& body) {
    auto r = edge.post(kBase + path, body, edge.acme_token);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return str(r.data(), "id");
  }
  Board() {
    branch = make("/branches", R"({"name":"Moda"})");
    other_branch = make("/branches", R"({"name":"Bebek"})");
    tea = make("/products", R"({"name":"Tea","priceMinor":1500,"vatRateBps":1000})");
  }
  json::value order(const std::string& branch_id, const std::string& client_id, int status = 201) {
    auto r = edge.post(kBase + "/orders",
                       R"({"branchId":")" + branch_id + R"(","clientOrderId":")" + client_id +
                           R"(","items":[{"productId":")" + tea + R"(","quantity":1}]})",
                       edge.acme_token);
    REQUIRE_MESSAGE(r.status == status, r.body);
    return r.data();
  }
  std::string events_path(const std::string& branch_id) {
    return kBase + "/orders/board/events?branchId=" + branch_id;
  }
};

}  // namespace

TEST_CASE("the board stream starts with the open orders, then follows every write of the branch") {
  Board b;
  auto first = b.order(b.branch, "before-1");
  b.order(b.other_branch, "elsewhere-1");

  StreamReader reader(b.edge, b.events_path(b.branch), b.edge.acme_token);
  REQUIRE(reader.status() == 200);
  CHECK(reader.content_type() == "text/event-stream");
  auto snapshot = reader.event(0);
  REQUIRE(snapshot);
  CHECK(snapshot->name == "snapshot");
  CHECK(snapshot->data.at("businessDate") == "2026-11-18");
  const auto& listed = snapshot->data.at("orders").as_array();
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].as_object() == first.as_object());  // exactly as GET /orders/{id} shows it

  // A new order of the branch, then a line, a payment and the close: four events, each the order as stored.
  auto created = b.order(b.branch, "live-1");
  auto e1 = reader.event(1);
  REQUIRE(e1);
  CHECK(e1->name == "order");
  CHECK(e1->data == created.as_object());
  const std::string id = str(created, "id");
  auto added = b.edge.post(kBase + "/orders/" + id + "/items",
                           R"({"version":1,"productId":")" + b.tea + R"(","quantity":2})", b.edge.acme_token);
  REQUIRE(added.status == 201);
  auto e2 = reader.event(2);
  REQUIRE(e2);
  CHECK(e2->data == added.data().as_object());
  CHECK(e2->data.at("version") == 2);
  auto paid = b.edge.post(kBase + "/orders/" + id + "/payments",
                          R"({"paymentId":"pay-1","amountMinor":4500,"method":"card"})", b.edge.acme_token);
  REQUIRE(paid.status == 201);
  auto e3 = reader.event(3);
  REQUIRE(e3);
  CHECK(e3->data.at("paidMinor") == 4500);
  auto closed = b.edge.post(kBase + "/orders/" + id + "/close", "", b.edge.acme_token);
  REQUIRE(closed.status == 200);
  auto e4 = reader.event(4);
  REQUIRE(e4);
  CHECK(e4->data.at("status") == "closed");
  // Ids increase, so a client can tell the order in which events were sent.
  CHECK(std::stoll(e1->id) < std::stoll(e2->id));
  CHECK(std::stoll(e3->id) < std::stoll(e4->id));

  // Nothing for: another branch's order, a replayed create, a replayed payment, a refused write.
  b.order(b.other_branch, "elsewhere-2");
  b.order(b.branch, "live-1", 200);
  CHECK(b.edge
            .post(kBase + "/orders/" + id + "/payments",
                  R"({"paymentId":"pay-1","amountMinor":4500,"method":"card"})", b.edge.acme_token)
            .status == 200);
  CHECK(b.edge
            .post(kBase + "/orders/" + str(first, "id") + "/items",
                  R"({"version":7,"productId":")" + b.tea + R"(","quantity":1})", b.edge.acme_token)
            .status == 409);
  CHECK(reader.settled_count() == 5);
}

TEST_CASE("every subscriber of a branch gets the same events; a branch token follows only its branch") {
  Board b;
  std::string moda_token = b.edge.token_with("acme", {"restaurant.branch:" + b.branch});
  StreamReader owner(b.edge, b.events_path(b.branch), b.edge.acme_token);
  StreamReader till(b.edge, b.events_path(b.branch), moda_token);
  REQUIRE(owner.event(0));
  REQUIRE(till.event(0));
  auto created = b.order(b.branch, "shared-1");
  auto a = owner.event(1), c = till.event(1);
  REQUIRE(a);
  REQUIRE(c);
  CHECK(a->data == created.as_object());
  CHECK(c->data == created.as_object());

  // The branch token cannot watch another branch: as GET /orders/board, 404 branch_not_found.
  auto other = b.edge.get(b.events_path(b.other_branch), moda_token);
  CHECK(other.status == 404);
  CHECK(other.error() == "branch_not_found");
}

TEST_CASE("the board stream checks like GET /orders/board before it opens") {
  Board b;
  CHECK(b.edge.get(b.events_path(b.branch)).status == 401);
  auto missing = b.edge.get(kBase + "/orders/board/events", b.edge.acme_token);
  CHECK(missing.status == 422);
  CHECK(missing.error() == "missing_field");
  auto unknown = b.edge.get(b.events_path("brn_nope"), b.edge.acme_token);
  CHECK(unknown.status == 404);
  CHECK(unknown.error() == "branch_not_found");
  // Another company's token: its company does not exist for it.
  CHECK(b.edge.get(b.events_path(b.branch), b.edge.globex_token).status == 404);
  std::string no_view = b.edge.token_with("acme", {"logs.view"});
  CHECK(b.edge.get(b.events_path(b.branch), no_view).status == 403);
}
