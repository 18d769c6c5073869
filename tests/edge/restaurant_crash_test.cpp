// Nothing acknowledged is lost: the edge process is killed with SIGKILL while clients create orders; after a
// restart every order that was answered 201 is there with its number, a retry of every attempted
// clientOrderId (answered or cut off) yields exactly one order, and the order numbers of each business day
// are 1..n without a gap or a repeat.

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "core/json.h"
#include "edge_process.h"
#include "restaurant_support.h"
#include "test_edge.h"

namespace {
namespace json = core::json;
using testing::client_for;
using testing::parse_object;
using namespace restaurant_test;

const std::string kLokanta = "/api/restaurant/companies/lokanta";
// The edge's flags in these tests: a rate limit the clients never reach.
const std::vector<std::string> kEdgeFlags = {"--rate-limit", "1000000/1s"};

struct Attempt {
  std::string clientOrderId;
  std::string body;
  std::string id;  // set when the edge answered 201 or 200
  std::int64_t number = 0;
};

// Creates the company `lokanta` in `data` with edge-admin, as an operator would; a restaurant.manage token.
std::string lokanta_token(const std::string& data) {
  std::string admin = std::string(EDGE_ADMIN_BIN) + " --json --data-dir " + data + " ";
  REQUIRE(testing::run(admin + "company create --slug lokanta --name Lokanta").exit_code == 0);
  auto token_run =
      testing::run(admin + "token create --company lokanta --name pos --permission restaurant.manage");
  REQUIRE(token_run.exit_code == 0);
  return std::string(parse_object(token_run.out).at("token").as_string());
}

}  // namespace

TEST_CASE(
    "restaurant orders survive kill -9: acknowledged orders stay, retries give one order, numbers 1..n") {
  testing::TempDir dir;
  std::string data = dir.path + "/data";
  std::string token = lokanta_token(data);

  std::string branch, product;
  {
    testing::EdgeProcess edge(dir.path, data, kEdgeFlags);
    auto c = client_for(edge.port, token);
    auto b = c.Post(kLokanta + "/branches", R"({"name":"Moda"})", "application/json");
    REQUIRE(b);
    REQUIRE(b->status == 201);
    branch = std::string(parse_object(b->body).at("data").at("id").as_string());
    auto p = c.Post(kLokanta + "/products", R"({"name":"Soup","priceMinor":4500,"vatRateBps":1000})",
                    "application/json");
    REQUIRE(p);
    REQUIRE(p->status == 201);
    product = std::string(parse_object(p->body).at("data").at("id").as_string());
    edge.stop(SIGKILL);  // the setup too must survive a kill
  }

  std::vector<Attempt> attempts;
  std::mutex mu;
  for (int round = 0; round < 3; ++round) {
    testing::EdgeProcess edge(dir.path, data, kEdgeFlags);
    std::atomic<int> acknowledged{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> clients;
    for (int t = 0; t < 8; ++t) {
      clients.emplace_back([&, t] {
        auto c = client_for(edge.port, token);
        for (int i = 0; !stop; ++i) {
          Attempt a;
          a.clientOrderId = "r" + std::to_string(round) + "-t" + std::to_string(t) + "-" + std::to_string(i);
          a.body = R"({"branchId":")" + branch + R"(","clientOrderId":")" + a.clientOrderId +
                   R"(","items":[{"productId":")" + product + R"(","quantity":)" + std::to_string(1 + i % 3) +
                   "}]}";
          auto res = c.Post(kLokanta + "/orders", a.body, "application/json");
          if (res && res->status == 201) {
            auto o = parse_object(res->body).at("data").as_object();
            a.id = std::string(o.at("id").as_string());
            a.number = o.at("number").as_int64();
            ++acknowledged;
          }
          std::lock_guard lock(mu);
          attempts.push_back(std::move(a));
          if (!res) break;  // the edge is gone
        }
      });
    }
    while (acknowledged < 150) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    edge.stop(SIGKILL);
    stop = true;
    for (auto& th : clients) th.join();
  }

  // Restart: every acknowledged order is there as it was answered.
  testing::EdgeProcess edge(dir.path, data, kEdgeFlags);
  auto c = client_for(edge.port, token);
  std::size_t acked = 0;
  for (const auto& a : attempts) {
    if (a.id.empty()) continue;
    ++acked;
    auto res = c.Get(kLokanta + "/orders/" + a.id);
    REQUIRE(res);
    REQUIRE_MESSAGE(res->status == 200, a.clientOrderId << " answered 201 and is gone: " << res->body);
    auto o = parse_object(res->body).at("data").as_object();
    CHECK(o.at("number").as_int64() == a.number);
    CHECK(o.at("clientOrderId").as_string() == a.clientOrderId);
  }
  CHECK(acked >= 450);

  // A retry of every attempt gives exactly one order per clientOrderId: the acknowledged one (200), one that
  // was committed but cut off before its answer (200), or a new one (201).
  std::map<std::string, std::set<std::int64_t>> numbers_by_day;
  std::set<std::string> ids;
  for (const auto& a : attempts) {
    auto res = c.Post(kLokanta + "/orders", a.body, "application/json");
    REQUIRE(res);
    REQUIRE_MESSAGE((res->status == 200 || res->status == 201), res->body);
    if (!a.id.empty()) CHECK(res->status == 200);
    auto o = parse_object(res->body).at("data").as_object();
    std::string id(o.at("id").as_string());
    if (!a.id.empty()) CHECK(id == a.id);
    CHECK(ids.insert(id).second);  // one order per attempt, never shared
    CHECK(numbers_by_day[std::string(o.at("businessDate").as_string())]
              .insert(o.at("number").as_int64())
              .second);
  }
  for (const auto& [day, numbers] : numbers_by_day) {
    INFO(day);
    CHECK(*numbers.begin() == 1);
    CHECK(*numbers.rbegin() == static_cast<std::int64_t>(numbers.size()));  // 1..n, no gap (no repeat: a set)
  }
}

TEST_CASE("restaurant payments survive kill -9: acknowledged payments stay, retries never pay twice") {
  testing::TempDir dir;
  std::string data = dir.path + "/data";
  std::string token = lokanta_token(data);

  // 400 orders of 2 x 4500 = 9000 each, to be paid in one payment each.
  std::vector<std::string> orders;
  {
    testing::EdgeProcess edge(dir.path, data, kEdgeFlags);
    auto c = client_for(edge.port, token);
    auto b = c.Post(kLokanta + "/branches", R"({"name":"Moda"})", "application/json");
    REQUIRE(b);
    std::string branch(parse_object(b->body).at("data").at("id").as_string());
    auto p = c.Post(kLokanta + "/products", R"({"name":"Soup","priceMinor":4500,"vatRateBps":1000})",
                    "application/json");
    REQUIRE(p);
    std::string product(parse_object(p->body).at("data").at("id").as_string());
    for (int i = 0; i < 400; ++i) {
      auto o = c.Post(kLokanta + "/orders",
                      R"({"branchId":")" + branch + R"(","clientOrderId":"o)" + std::to_string(i) +
                          R"(","items":[{"productId":")" + product + R"(","quantity":2}]})",
                      "application/json");
      REQUIRE(o);
      REQUIRE(o->status == 201);
      orders.emplace_back(parse_object(o->body).at("data").at("id").as_string());
    }
  }

  // 8 clients pay orders i, i+8, ... until the edge is killed after 150 acknowledged payments.
  // One char per order (not vector<bool>, whose bits share words): each thread writes only its own orders.
  std::vector<char> acknowledged(orders.size(), 0);
  std::vector<char> attempted(orders.size(), 0);
  {
    testing::EdgeProcess edge(dir.path, data, kEdgeFlags);
    std::atomic<int> paid{0};
    std::vector<std::thread> clients;
    for (int t = 0; t < 8; ++t) {
      clients.emplace_back([&, t] {
        auto c = client_for(edge.port, token);
        for (std::size_t i = static_cast<std::size_t>(t); i < orders.size(); i += 8) {
          attempted[i] = 1;
          auto res =
              c.Post(kLokanta + "/orders/" + orders[i] + "/payments",
                     R"({"paymentId":"pay-)" + std::to_string(i) + R"(","amountMinor":9000,"method":"cash"})",
                     "application/json");
          if (!res) break;
          if (res->status == 201) {
            acknowledged[i] = 1;
            ++paid;
          }
        }
      });
    }
    while (paid < 150) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    edge.stop(SIGKILL);
    for (auto& th : clients) th.join();
  }

  testing::EdgeProcess edge(dir.path, data, kEdgeFlags);
  auto c = client_for(edge.port, token);
  int retried_paid = 0;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (acknowledged[i]) {
      auto res = c.Get(kLokanta + "/orders/" + orders[i]);
      REQUIRE(res);
      auto o = parse_object(res->body).at("data").as_object();
      CHECK(o.at("paidMinor").as_int64() == 9000);
      CHECK(o.at("payments").as_array().size() == 1);
    }
    if (!attempted[i]) continue;
    // The retry: the original payment when it was committed (answered or not), a new one otherwise; never
    // two.
    auto res =
        c.Post(kLokanta + "/orders/" + orders[i] + "/payments",
               R"({"paymentId":"pay-)" + std::to_string(i) + R"(","amountMinor":9000,"method":"cash"})",
               "application/json");
    REQUIRE(res);
    REQUIRE_MESSAGE((res->status == 200 || res->status == 201), res->body);
    if (acknowledged[i]) CHECK(res->status == 200);
    if (res->status == 201) ++retried_paid;
    auto o = parse_object(res->body).at("data").as_object();
    CHECK(o.at("payments").as_array().size() == 1);
    CHECK(o.at("dueMinor").as_int64() == 0);
  }
  CHECK(retried_paid <= 8);  // only what was cut off in flight: at most one request per client
}
