// Optimistic concurrency on one order (versions like Square's): concurrent line edits made against the same
// version give one change and 409 invalid_version for the rest; concurrent payments never pay more than the
// total.

#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {
// Sends each of `bodies` to `path` at once, one thread and connection each; the answers, in that order.
std::vector<testing::Reply> race(TestEdge& edge, const std::string& path,
                                 const std::vector<std::string>& bodies) {
  std::vector<testing::Reply> replies(bodies.size());
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    threads.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", edge.server->port());
      c.set_bearer_token_auth(edge.acme_token);
      c.set_tcp_nodelay(true);
      ++ready;
      while (ready < static_cast<int>(bodies.size())) std::this_thread::yield();
      auto res = c.Post(kBase + path, bodies[i], "application/json");
      if (!res) return;  // status stays 0: the counts below fail (no REQUIRE off the test's thread)
      replies[i].status = res->status;
      replies[i].body = res->body;
      auto parsed = core::parse_json(res->body);
      if (parsed) replies[i].json = *parsed;
    });
  }
  for (auto& t : threads) t.join();
  return replies;
}

struct Shop {
  TestEdge edge{unthrottled()};
  std::string branch = create(edge, "/branches", R"({"name":"Moda"})");
  std::string soup = create(edge, "/products", R"({"name":"Soup","priceMinor":4500,"vatRateBps":1000})");
  std::string tea = create(edge, "/products", R"({"name":"Tea","priceMinor":1500,"vatRateBps":1000})");

  json::object order() {
    auto r = edge.post(kBase + "/orders",
                       R"({"branchId":")" + branch + R"(","clientOrderId":"c1","items":[{"productId":")" +
                           soup + R"(","quantity":2}]})",
                       edge.acme_token);
    REQUIRE(r.status == 201);
    return r.data().as_object();
  }
};
}  // namespace

TEST_CASE("restaurant orders: 10 line adds against one version give one line and nine invalid_version") {
  Shop s;
  auto o = s.order();
  std::string id(o.at("id").as_string());
  std::int64_t version = o.at("version").as_int64();
  std::vector<std::string> bodies(
      10, R"({"version":)" + std::to_string(version) + R"(,"productId":")" + s.tea + R"(","quantity":1})");
  auto replies = race(s.edge, "/orders/" + id + "/items", bodies);
  int added = 0, stale = 0;
  for (const auto& r : replies) {
    if (r.status == 201) ++added;
    if (r.status == 409 && r.error() == "invalid_version") {
      ++stale;
      // The refusal carries the order as it is now: already at the next version, with the tea line.
      const auto& current = r.json.as_object().at("order").as_object();
      CHECK(current.at("version").as_int64() == version + 1);
      CHECK(current.at("items").as_array().size() == 2);
    }
  }
  CHECK(added == 1);
  CHECK(stale == 9);
  auto now = s.edge.get(kBase + "/orders/" + id, s.edge.acme_token);
  CHECK(now.data().as_object().at("items").as_array().size() == 2);
  CHECK(now.data().as_object().at("version").as_int64() == version + 1);
  CHECK(now.data().as_object().at("grossMinor").as_int64() == 2 * 4500 + 1500);
}

TEST_CASE("restaurant orders: concurrent payments never pay more than the total") {
  Shop s;
  auto o = s.order();  // 2 x 4500 = 9000 due
  std::string id(o.at("id").as_string());
  // Eight different payments of 3000 each at once: three fit (9000), five are refused.
  std::vector<std::string> bodies;
  for (int i = 0; i < 8; ++i)
    bodies.push_back(R"({"paymentId":"p)" + std::to_string(i) + R"(","amountMinor":3000,"method":"card"})");
  auto replies = race(s.edge, "/orders/" + id + "/payments", bodies);
  int paid = 0, refused = 0;
  for (const auto& r : replies) {
    if (r.status == 201) ++paid;
    if (r.status == 422 && r.error() == "payment_exceeds_due") ++refused;
  }
  CHECK(paid == 3);
  CHECK(refused == 5);
  auto now = s.edge.get(kBase + "/orders/" + id, s.edge.acme_token).data().as_object();
  CHECK(now.at("paidMinor").as_int64() == 9000);
  CHECK(now.at("dueMinor").as_int64() == 0);
  CHECK(now.at("payments").as_array().size() == 3);
  CHECK(now.at("version").as_int64() == o.at("version").as_int64() + 3);
  CHECK(s.edge.post(kBase + "/orders/" + id + "/close", "{}", s.edge.acme_token).status == 200);
}
