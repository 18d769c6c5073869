// The Idempotency-Key header on restaurant creates (docs/restaurant-api.md, "Idempotency-Key"; Stripe's
// semantics): a retry with the same key and body replays the first response and books nothing twice, another
// body with the key is 409 idempotency_conflict, parallel retries make one record, keys are scoped by branch.

#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

struct Shop {
  TestEdge edge{unthrottled()};
  std::string branch = create(edge, "/branches", R"({"name":"Moda"})");
  std::string other = create(edge, "/branches", R"({"name":"Kadikoy"})");
  std::string category = create(edge, "/categories", R"({"name":"Produce"})");

  testing::Reply post(const std::string& path, const std::string& body, const std::string& key,
                      const std::string& token = "", const std::string& content_type = "application/json") {
    return edge.send(
        "POST", kBase + path, body,
        {{"Authorization", "Bearer " + (token.empty() ? edge.acme_token : token)}, {"Idempotency-Key", key}},
        content_type);
  }

  std::string expense(std::int64_t gross, const std::string& branch_id = "") const {
    return R"({"branchId":")" + (branch_id.empty() ? branch : branch_id) + R"(","categoryId":")" + category +
           R"(","grossMinor":)" + std::to_string(gross) + R"(,"vatRateBps":2000,"accrualDate":"2026-11-10"})";
  }

  // X-Total-Count of a list.
  int count(const std::string& path) {
    auto r = edge.get(kBase + path, edge.acme_token);
    REQUIRE(r.status == 200);
    return std::stoi(r.header("X-Total-Count"));
  }
};

}  // namespace

TEST_CASE("restaurant idempotency: a retried POST /expenses replays the first response and books one cost") {
  Shop s;
  auto first = s.post("/expenses", s.expense(10000), "exp-retry-1");
  REQUIRE(first.status == 201);
  CHECK(first.header("Idempotent-Replayed") == "");
  auto again = s.post("/expenses", s.expense(10000), "exp-retry-1");
  CHECK(again.status == 201);
  CHECK(again.body == first.body);
  CHECK(again.data().at("id") == first.data().at("id"));
  CHECK(again.header("Idempotent-Replayed") == "true");
  // Member order and whitespace are not part of the request's identity.
  auto reordered =
      s.post("/expenses",
             R"({ "accrualDate":"2026-11-10", "vatRateBps":2000, "grossMinor":10000, "categoryId":")" +
                 s.category + R"(", "branchId":")" + s.branch + R"(" })",
             "exp-retry-1");
  CHECK(reordered.status == 201);
  CHECK(reordered.body == first.body);
  // The retry answers as the original did even after the category it referenced is gone.
  REQUIRE(s.edge.del(kBase + "/categories/" + s.category, s.edge.acme_token).status == 200);
  CHECK(s.post("/expenses", s.expense(10000), "exp-retry-1").body == first.body);
  CHECK(s.count("/expenses") == 1);
}

TEST_CASE("restaurant idempotency: the same key with another body is 409 idempotency_conflict") {
  Shop s;
  REQUIRE(s.post("/expenses", s.expense(10000), "k-1").status == 201);
  auto other = s.post("/expenses", s.expense(10001), "k-1");
  CHECK(other.status == 409);
  CHECK(other.error() == "idempotency_conflict");
  // The same key on another create route of the same scope is another request too.
  auto vendor = s.post("/vendors", R"({"name":"Metro"})", "k-2");
  REQUIRE(vendor.status == 201);
  CHECK(s.post("/categories", R"({"name":"Metro"})", "k-2").error() == "idempotency_conflict");
  CHECK(s.count("/expenses") == 1);
  CHECK(s.count("/categories") == 1);
  // Without a key every POST is a new request, as before.
  CHECK(s.edge.post(kBase + "/expenses", s.expense(10000), s.edge.acme_token).status == 201);
  CHECK(s.count("/expenses") == 2);
}

TEST_CASE("restaurant idempotency: 20 parallel retries with one key book one expense") {
  Shop s;
  const std::string body = s.expense(4200);
  const int n = 20;
  std::vector<int> statuses(n);
  std::vector<std::string> bodies(n);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", s.edge.server->port());
      c.set_tcp_nodelay(true);
      ++ready;
      while (ready < n) std::this_thread::yield();
      auto res = c.Post(kBase + "/expenses",
                        httplib::Headers{{"Authorization", "Bearer " + s.edge.acme_token},
                                         {"Idempotency-Key", "parallel-1"}},
                        body, "application/json");
      statuses[i] = res ? res->status : 0;
      bodies[i] = res ? res->body : "";
    });
  for (auto& t : threads) t.join();
  std::set<std::string> answers;
  for (int i = 0; i < n; ++i) {
    CHECK_MESSAGE(statuses[i] == 201, bodies[i]);
    answers.insert(bodies[i]);
  }
  CHECK(answers.size() == 1);
  CHECK(s.count("/expenses") == 1);
}

TEST_CASE("restaurant idempotency: a retried import replays the same created ids and imports once") {
  Shop s;
  const std::string csv =
      "accrualDate,category,vendor,grossMinor,vatRateBps,dueDate,paidAt,paymentMethod,isVatDeductible\n"
      "2026-11-10,Produce,Metro,1180,1800,,,,\n"
      "2026-11-11,Produce,Bakery,2000,1000,2026-11-30,,,\n";
  const std::string body = core::to_json(json::object{{"csv", csv}, {"branchId", s.branch}});
  auto first = s.post("/expenses/import", body, "import-1");
  REQUIRE(first.status == 200);
  REQUIRE(first.data().at("created").as_array().size() == 2);
  auto again = s.post("/expenses/import", body, "import-1");
  CHECK(again.status == 200);
  CHECK(again.body == first.body);
  CHECK(again.header("Idempotent-Replayed") == "true");
  CHECK(s.count("/expenses") == 2);
  CHECK(s.count("/vendors") == 2);
  // The raw text/csv form is a request of its own: its query and body make its fingerprint.
  const std::string raw = "/expenses/import?branchId=" + s.branch;
  auto raw_first = s.post(raw, csv, "import-2", "", "text/csv");
  REQUIRE(raw_first.status == 200);
  CHECK(s.post(raw, csv, "import-2", "", "text/csv").body == raw_first.body);
  CHECK(s.post(raw + "&dryRun=1", csv, "import-2", "", "text/csv").error() == "idempotency_conflict");
  CHECK(s.count("/expenses") == 4);
}

TEST_CASE("restaurant idempotency: every create replays a retry and refuses another body") {
  Shop s;
  struct Create {
    std::string path, body, other, list;
  };
  const std::string b = s.branch;
  const std::vector<Create> creates{
      {"/branches", R"({"name":"Besiktas"})", R"({"name":"Uskudar"})", "/branches"},
      {"/categories", R"({"name":"Drinks"})", R"({"name":"Bread"})", "/categories"},
      {"/vendors", R"({"name":"Metro"})", R"({"name":"Migros"})", "/vendors"},
      {"/tables", R"({"branchId":")" + b + R"(","name":"T1"})", R"({"branchId":")" + b + R"(","name":"T2"})",
       "/tables"},
      {"/products", R"({"name":"Tea","priceMinor":1500,"vatRateBps":1000})",
       R"({"name":"Tea","priceMinor":1600,"vatRateBps":1000})", "/products"},
      {"/option-groups", R"({"name":"Size","options":[{"name":"Large","priceDeltaMinor":500}]})",
       R"({"name":"Size","options":[{"name":"Small"}]})", "/option-groups"},
      {"/income", R"({"branchId":")" + b + R"(","channel":"card","grossMinor":50000})",
       R"({"branchId":")" + b + R"(","channel":"card","grossMinor":50001})", "/income"},
      {"/shifts", R"({"branchId":")" + b + R"(","openingFloatMinor":20000})",
       R"({"branchId":")" + b + R"(","openingFloatMinor":20001})", ""},
  };
  for (const Create& c : creates) {
    INFO(c.path);
    int before = c.list.empty() ? 0 : s.count(c.list);
    const std::string key = "key" + c.path;
    auto first = s.post(c.path, c.body, key);
    REQUIRE(first.status == 201);
    auto again = s.post(c.path, c.body, key);
    CHECK(again.status == 201);
    CHECK(again.body == first.body);
    CHECK(again.header("Idempotent-Replayed") == "true");
    auto other = s.post(c.path, c.other, key);
    CHECK(other.status == 409);
    CHECK(other.error() == "idempotency_conflict");
    if (!c.list.empty()) CHECK(s.count(c.list) == before + 1);
  }
  // The retried shift open replayed its 201 instead of answering shift_already_open.
  CHECK(
      s.edge
          .post(kBase + "/shifts", R"({"branchId":")" + b + R"(","openingFloatMinor":1})", s.edge.acme_token)
          .error() == "shift_already_open");
}

TEST_CASE("restaurant idempotency: keys are scoped by branch; a bad key is 422") {
  Shop s;
  auto first = s.post("/expenses", s.expense(10000), "till-key");
  REQUIRE(first.status == 201);
  // Another branch's client reusing the key neither sees the first expense nor learns it exists.
  std::string scoped = s.edge.token_with("acme", {"restaurant.branch:" + s.other});
  auto there = s.post("/expenses", s.expense(10000, s.other), "till-key", scoped);
  CHECK(there.status == 201);
  CHECK(there.data().at("id") != first.data().at("id"));
  CHECK(str(there.data(), "branchId") == s.other);
  CHECK(s.post("/expenses", s.expense(10001, s.other), "till-key", scoped).error() == "idempotency_conflict");

  auto empty = s.post("/expenses", s.expense(10000), "");
  CHECK(empty.status == 422);
  CHECK(empty.error() == "invalid_field");
  CHECK(s.post("/expenses", s.expense(10000), std::string(256, 'k')).error() == "invalid_field");
  CHECK(s.post("/expenses", s.expense(10000), std::string(255, 'k')).status == 201);
  CHECK(s.count("/expenses") == 3);
}
