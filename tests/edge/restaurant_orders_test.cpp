// Restaurant orders: create with clientOrderId idempotency, lines with versions, payments with paymentId
// idempotency and the payment ledger, close, the open-orders board and order numbers per business date.
//
// Menu used throughout (VAT from a VAT-inclusive gross: vat = round_half_up(gross * bps / (10000 + bps))):
//   Tea     1500 at 10 %   Beer 9000 at 20 %
//   Burger 12000 at 10 %, option groups Size (exactly one: Small +0, Large +500) and Extras (0..2: Cheese
//   +150)

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <thread>

#include "edge/app.h"
#include "restaurant_support.h"
#include "test_edge.h"

using testing::Reply;
using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

struct Shop {
  TestEdge edge{unthrottled()};
  std::string branch, other_branch, table, other_table;
  std::string tea, beer, burger, small, large, cheese;

  std::string make(const std::string& path, const std::string& body) {
    auto r = edge.post(kBase + path, body, edge.acme_token);
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return str(r.data(), "id");
  }

  Shop() {
    branch = make("/branches", R"({"name":"Moda"})");
    other_branch = make("/branches", R"({"name":"Bebek"})");
    table = make("/tables", R"({"name":"T1","branchId":")" + branch + R"("})");
    other_table = make("/tables", R"({"name":"T9","branchId":")" + other_branch + R"("})");
    auto size = edge.post(kBase + "/option-groups",
                          R"({"name":"Size","minSelect":1,"maxSelect":1,"options":[{"name":"Small"},)"
                          R"({"name":"Large","priceDeltaMinor":500}]})",
                          edge.acme_token);
    REQUIRE(size.status == 201);
    small = str(size.data().at("options").as_array()[0], "id");
    large = str(size.data().at("options").as_array()[1], "id");
    auto extras = edge.post(kBase + "/option-groups",
                            R"({"name":"Extras","minSelect":0,"maxSelect":2,)"
                            R"("options":[{"name":"Cheese","priceDeltaMinor":150}]})",
                            edge.acme_token);
    REQUIRE(extras.status == 201);
    cheese = str(extras.data().at("options").as_array()[0], "id");
    tea = make("/products", R"({"name":"Tea","priceMinor":1500,"vatRateBps":1000})");
    beer = make("/products", R"({"name":"Beer","priceMinor":9000,"vatRateBps":2000})");
    burger =
        make("/products", R"({"name":"Burger","priceMinor":12000,"vatRateBps":1000,"optionGroupIds":[")" +
                              str(size.data(), "id") + R"(",")" + str(extras.data(), "id") + R"("]})");
  }

  std::string body(const std::string& client_id, const std::string& items, const std::string& extra = "") {
    return R"({"branchId":")" + branch + R"(","clientOrderId":")" + client_id + R"(","items":[)" + items +
           "]" + extra + "}";
  }
  std::string item(const std::string& product, int qty, const std::string& options = "") {
    return R"({"productId":")" + product + R"(","quantity":)" + std::to_string(qty) +
           (options.empty() ? "" : R"(,"options":[)" + options + "]") + "}";
  }
  Reply create(const std::string& b) { return edge.post(kBase + "/orders", b, edge.acme_token); }
  json::value open(const std::string& client_id, const std::string& items) {
    auto r = create(body(client_id, items));
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return r.data();
  }
  Reply add(const std::string& order, std::int64_t version, const std::string& product, int qty,
            const std::string& options = "") {
    std::string it = item(product, qty, options);
    return edge.post(kBase + "/orders/" + order + "/items",
                     R"({"version":)" + std::to_string(version) + "," + it.substr(1), edge.acme_token);
  }
  Reply pay(const std::string& order, const std::string& payment_id, std::int64_t amount,
            const std::string& method = "card", const std::string& token = "") {
    return edge.post(kBase + "/orders/" + order + "/payments",
                     R"({"paymentId":")" + payment_id + R"(","amountMinor":)" + std::to_string(amount) +
                         R"(,"method":")" + method + R"("})",
                     token.empty() ? edge.acme_token : token);
  }
  Reply close(const std::string& order) {
    return edge.post(kBase + "/orders/" + order + "/close", "", edge.acme_token);
  }
  Reply board(const std::string& query) {
    return edge.get(kBase + "/orders/board?" + query, edge.acme_token);
  }

  // Every stored key of the restaurant table containing `part`, with its value.
  std::vector<std::pair<std::string, std::string>> stored(const std::string& part) {
    std::vector<std::pair<std::string, std::string>> out;
    edge::App& app = edge.server->app();
    store::Table t = app.restaurant_table;
    REQUIRE(app.kv
                ->read([&](const store::ReadTxn& txn) -> core::Status {
                  out.clear();
                  txn.scan(t, "c/", [&](std::string_view k, std::string_view v) {
                    if (k.find(part) != std::string_view::npos) out.emplace_back(k, v);
                    return true;
                  });
                  return {};
                })
                .ok());
    return out;
  }
};

json::value parsed(const std::string& text) {
  auto v = core::parse_json(text);
  REQUIRE(v.ok());
  return *v;
}
}  // namespace

TEST_CASE("restaurant orders: create snapshots lines with options and per-line VAT") {
  Shop s;
  auto r = s.create(s.body(
      "till-1", s.item(s.tea, 2) + "," + s.item(s.burger, 1, "\"" + s.cheese + "\",\"" + s.large + "\""),
      R"(,"tableId":")" + s.table + "\""));
  REQUIRE(r.status == 201);
  const json::value& o = r.data();
  std::string id = str(o, "id");
  CHECK(id.rfind("ord_", 0) == 0);
  CHECK(o.at("number") == 1);
  CHECK(o.at("branchId") == json::value(s.branch));
  CHECK(o.at("tableId") == json::value(s.table));
  CHECK(o.at("clientOrderId") == "till-1");
  CHECK(o.at("businessDate") == "2026-11-18");
  CHECK(o.at("status") == "open");
  CHECK(o.at("version") == 1);
  CHECK(o.at("payments") == json::array());
  CHECK(o.at("createdAt") == kNow);
  CHECK(o.at("updatedAt") == kNow);
  CHECK(o.at("closedAt").is_null());
  auto& lines = o.at("items").as_array();
  REQUIRE(lines.size() == 2);
  std::string tea_line = str(lines[0], "lineId");
  CHECK(tea_line.rfind("ln_", 0) == 0);
  // Tea 1500 x 2 = 3000 at 10 %: 3000 * 1000 / 11000 = 272.73 -> 273, net 2727.
  CHECK(lines[0] == json::value(json::object{{"lineId", tea_line},
                                             {"productId", s.tea},
                                             {"name", "Tea"},
                                             {"unitPriceMinor", 1500},
                                             {"quantity", 2},
                                             {"vatRateBps", 1000},
                                             {"options", json::array()},
                                             {"grossMinor", 3000},
                                             {"netMinor", 2727},
                                             {"vatMinor", 273}}));
  // Burger 12000 + Large 500 + Cheese 150 = 12650 at 10 %: 12650 * 1000 / 11000 = 1150 exactly, net 11500.
  // Options in menu order (Size before Extras), whatever order they were sent in.
  CHECK(lines[1].at("unitPriceMinor") == 12650);
  CHECK(lines[1].at("vatMinor") == 1150);
  CHECK(lines[1].at("netMinor") == 11500);
  auto& options = lines[1].at("options").as_array();
  REQUIRE(options.size() == 2);
  CHECK(options[0].at("optionId") == json::value(s.large));
  CHECK(options[0].at("name") == "Large");
  CHECK(options[0].at("priceDeltaMinor") == 500);
  CHECK(options[1] == json::value(json::object{{"groupId", options[1].at("groupId")},
                                               {"optionId", s.cheese},
                                               {"name", "Cheese"},
                                               {"priceDeltaMinor", 150}}));
  // Order: gross 3000 + 12650 = 15650, VAT 273 + 1150 = 1423, net 14227; nothing paid.
  CHECK(o.at("grossMinor") == 15650);
  CHECK(o.at("vatMinor") == 1423);
  CHECK(o.at("netMinor") == 14227);
  CHECK(o.at("paidMinor") == 0);
  CHECK(o.at("dueMinor") == 15650);
  CHECK(s.edge.get(kBase + "/orders/" + id, s.edge.acme_token).data() == o);

  // Counter orders have no table; an order can start empty.
  auto counter = s.create(R"({"branchId":")" + s.branch + R"(","clientOrderId":"till-2","tableId":null})");
  REQUIRE(counter.status == 201);
  CHECK(counter.data().at("tableId").is_null());
  CHECK(counter.data().at("number") == 2);
  CHECK(counter.data().at("grossMinor") == 0);
  CHECK(counter.data().at("items") == json::array());

  // Stored under c/<companyId>/order/<id>, with the open index.
  CHECK(s.stored("/order/" + id).size() == 1);
  auto open = s.stored("/orderopen/" + s.branch + "/2026-11-18/" + id);
  REQUIRE(open.size() == 1);
  CHECK(parsed(open[0].second).at("orderId") == json::value(id));
}

TEST_CASE("restaurant orders: create errors") {
  Shop s;
  auto check = [&](const std::string& b, int status, const std::string& code) {
    auto r = s.create(b);
    CHECK_MESSAGE(r.status == status, b);
    CHECK_MESSAGE(r.error() == code, b);
  };
  check(s.body("e1", s.item("prd_nope", 1)), 404, "product_not_found");
  check(s.body("e2", s.item(s.tea, 0)), 422, "invalid_quantity");
  check(s.body("e3", s.item(s.tea, 1) + R"(,{"productId":")" + s.tea + R"(","quantity":1.5})"), 422,
        "invalid_quantity");
  check(s.body("e4", R"({"quantity":1})"), 422, "missing_field");
  check(s.body("e5", s.item(s.burger, 1)), 422, "invalid_option_count");  // Size is required
  check(s.body("e6", s.item(s.burger, 1, "\"" + s.small + "\",\"" + s.large + "\"")), 422,
        "invalid_option_count");
  check(s.body("e7", s.item(s.tea, 1, "\"" + s.small + "\"")), 422, "option_not_available");
  check(s.body("e8", s.item(s.tea, 1), R"(,"tableId":")" + s.other_table + "\""), 404, "table_not_found");
  check(s.body("e9", s.item(s.tea, 1), R"(,"tableId":"tbl_nope")"), 404, "table_not_found");
  check(s.body("e10", s.item(s.tea, 1), R"(,"tableId":5)"), 422, "invalid_field");
  check(R"({"branchId":")" + s.branch + R"(","items":[]})", 422, "missing_field");
  check(R"({"branchId":")" + s.branch + R"(","clientOrderId":"","items":[]})", 422, "invalid_field");
  check(R"({"clientOrderId":"x","items":[]})", 422, "missing_field");
  check(R"({"branchId":"br_nope","clientOrderId":"x"})", 404, "branch_not_found");
  check(R"({"branchId":")" + s.branch + R"(","clientOrderId":"x","items":{}})", 422, "invalid_field");
  check("nope", 400, "invalid_json");

  // An inactive product cannot be ordered.
  REQUIRE(s.edge.patch(kBase + "/products/" + s.beer, R"({"active":false})", s.edge.acme_token).status ==
          200);
  check(s.body("e11", s.item(s.beer, 1)), 422, "product_inactive");

  // A branch token writes only its branch; a view-only token writes nothing.
  std::string scoped = s.edge.token_with("acme", {"restaurant.branch:" + s.other_branch});
  auto other = s.edge.post(kBase + "/orders", s.body("e12", s.item(s.tea, 1)), scoped);
  CHECK(other.status == 403);
  CHECK(other.error() == "forbidden_branch");
  std::string viewer = s.edge.token_with("acme", {"restaurant.view"});
  CHECK(s.edge.post(kBase + "/orders", s.body("e13", s.item(s.tea, 1)), viewer).error() ==
        "forbidden_branch");
  auto own =
      s.edge.post(kBase + "/orders",
                  R"({"branchId":")" + s.other_branch + R"(","clientOrderId":"e14","items":[]})", scoped);
  CHECK(own.status == 201);
  // No failed create used up a number.
  CHECK(s.open("e15", "").at("number") == 1);
  // Another company's branch is unknown.
  CHECK(s.edge.post("/api/restaurant/companies/globex/orders", s.body("e16", ""), s.edge.globex_token)
            .error() == "branch_not_found");
}

TEST_CASE("restaurant orders: a retried clientOrderId answers the original order; another body conflicts") {
  Shop s;
  std::string b = s.body("till-7", s.item(s.burger, 1, "\"" + s.large + "\",\"" + s.cheese + "\""));
  auto first = s.create(b);
  REQUIRE(first.status == 201);
  auto again = s.create(b);
  CHECK(again.status == 200);
  CHECK(again.data() == first.data());
  // Option order is not part of the request's identity.
  auto reordered =
      s.create(s.body("till-7", s.item(s.burger, 1, "\"" + s.cheese + "\",\"" + s.large + "\"")));
  CHECK(reordered.status == 200);
  CHECK(reordered.data().at("id") == first.data().at("id"));
  // A menu change after the original does not affect the retry.
  REQUIRE(s.edge.patch(kBase + "/products/" + s.burger, R"({"active":false})", s.edge.acme_token).status ==
          200);
  CHECK(s.create(b).status == 200);

  for (const std::string& other :
       {s.body("till-7", s.item(s.burger, 2, "\"" + s.large + "\"")), s.body("till-7", s.item(s.tea, 1)),
        s.body("till-7", s.item(s.burger, 1, "\"" + s.large + "\",\"" + s.cheese + "\""),
               R"(,"tableId":")" + s.table + "\"")}) {
    auto r = s.create(other);
    CHECK(r.status == 409);
    CHECK(r.error() == "idempotency_conflict");
  }
  CHECK(s.open("till-8", "").at("number") == 2);
}

TEST_CASE("restaurant orders: 20 parallel creates with one clientOrderId make one order and one number") {
  Shop s;
  const std::string b = s.body("till-par", s.item(s.tea, 1));
  const std::string url = s.edge.url();
  const std::string token = s.edge.acme_token;
  std::vector<int> statuses(20);
  std::vector<std::string> bodies(20);
  std::vector<std::thread> threads;
  for (int i = 0; i < 20; ++i)
    threads.emplace_back([&, i] {
      httplib::Client client(url);
      auto res = client.Post(kBase + "/orders", httplib::Headers{{"Authorization", "Bearer " + token}}, b,
                             "application/json");
      statuses[i] = res ? res->status : 0;
      bodies[i] = res ? res->body : "";
    });
  for (auto& t : threads) t.join();
  int created = 0;
  std::set<std::string> ids;
  for (int i = 0; i < 20; ++i) {
    CHECK_MESSAGE((statuses[i] == 201 || statuses[i] == 200), bodies[i]);
    created += statuses[i] == 201;
    auto v = parsed(bodies[i]);
    CHECK(v.at("data").at("number") == 1);
    ids.insert(str(v.at("data"), "id"));
  }
  CHECK(created == 1);
  CHECK(ids.size() == 1);
  CHECK(s.stored("/order/").size() == 1);
  CHECK(s.stored("/orderopen/").size() == 1);
  CHECK(s.open("till-next", "").at("number") == 2);
}

TEST_CASE("restaurant orders: lines are added and removed against the current version") {
  Shop s;
  json::value o = s.open("t1", s.item(s.tea, 1));
  std::string id = str(o, "id");
  std::string tea_line = str(o.at("items").as_array()[0], "lineId");

  // Beer 9000 x 2 = 18000 at 20 %: 18000 * 2000 / 12000 = 3000, net 15000. Tea 1500: 136.36 -> 136.
  auto added = s.add(id, 1, s.beer, 2);
  REQUIRE(added.status == 201);
  CHECK(added.data().at("version") == 2);
  CHECK(added.data().at("items").as_array().size() == 2);
  CHECK(added.data().at("items").as_array()[1].at("vatMinor") == 3000);
  CHECK(added.data().at("grossMinor") == 19500);
  CHECK(added.data().at("vatMinor") == 3136);
  CHECK(added.data().at("netMinor") == 16364);

  // A stale version: 409 with the current order in the body, nothing changed.
  auto stale = s.add(id, 1, s.tea, 1);
  CHECK(stale.status == 409);
  CHECK(stale.error() == "invalid_version");
  CHECK(stale.json.at("order") == added.data());
  CHECK(stale.json.at("message").is_string());
  auto stale_del =
      s.edge.del(kBase + "/orders/" + id + "/items?lineId=" + tea_line + "&version=5", s.edge.acme_token);
  CHECK(stale_del.status == 409);
  CHECK(stale_del.json.at("order").at("version") == 2);

  // Menu snapshot: a price change leaves the existing line alone; a new line takes the new price.
  REQUIRE(s.edge
              .patch(kBase + "/products/" + s.beer, R"({"priceMinor":9900,"name":"Draft beer"})",
                     s.edge.acme_token)
              .status == 200);
  auto third = s.add(id, 2, s.beer, 1);
  REQUIRE(third.status == 201);
  auto& lines = third.data().at("items").as_array();
  CHECK(lines[1].at("unitPriceMinor") == 9000);
  CHECK(lines[1].at("name") == "Beer");
  CHECK(lines[2].at("unitPriceMinor") == 9900);
  CHECK(lines[2].at("name") == "Draft beer");
  CHECK(third.data().at("grossMinor") == 1500 + 18000 + 9900);

  s.edge.clock.advance_ms(5000);
  auto removed =
      s.edge.del(kBase + "/orders/" + id + "/items?lineId=" + tea_line + "&version=3", s.edge.acme_token);
  REQUIRE(removed.status == 200);
  CHECK(removed.data().at("version") == 4);
  CHECK(removed.data().at("items").as_array().size() == 2);
  CHECK(removed.data().at("grossMinor") == 27900);
  CHECK(removed.data().at("updatedAt") == "2026-11-18T11:06:45.000Z");
  CHECK(s.edge.get(kBase + "/orders/" + id, s.edge.acme_token).data() == removed.data());

  auto gone =
      s.edge.del(kBase + "/orders/" + id + "/items?lineId=" + tea_line + "&version=4", s.edge.acme_token);
  CHECK(gone.status == 404);
  CHECK(gone.error() == "line_not_found");
  CHECK(s.edge.del(kBase + "/orders/" + id + "/items?version=4", s.edge.acme_token).error() ==
        "missing_field");
  CHECK(s.edge.del(kBase + "/orders/" + id + "/items?lineId=x", s.edge.acme_token).error() ==
        "missing_field");
  CHECK(s.edge.del(kBase + "/orders/" + id + "/items?lineId=x&version=v", s.edge.acme_token).error() ==
        "invalid_field");

  // Item errors, with the current version.
  CHECK(s.add(id, 4, "prd_nope", 1).error() == "product_not_found");
  CHECK(s.add(id, 4, s.tea, 100001).error() == "invalid_quantity");
  CHECK(s.add(id, 4, s.burger, 1).error() == "invalid_option_count");
  CHECK(s.edge
            .post(kBase + "/orders/" + id + "/items", R"({"productId":")" + s.tea + R"(","quantity":1})",
                  s.edge.acme_token)
            .error() == "missing_field");
  CHECK(s.edge
            .post(kBase + "/orders/" + id + "/items", R"({"version":"4","productId":"x","quantity":1})",
                  s.edge.acme_token)
            .error() == "invalid_field");
  CHECK(s.add("ord_AAAAAAAAAAAAAAAA", 1, s.tea, 1).error() == "order_not_found");
  CHECK(s.add("nope", 1, s.tea, 1).error() == "order_not_found");
  CHECK(s.edge.get(kBase + "/orders/" + id, s.edge.acme_token).data().at("version") == 4);
}

TEST_CASE("restaurant orders: payments are idempotent per paymentId and written to the ledger") {
  Shop s;
  // Tea 1500 x 2 = 3000 and Beer 9000: gross 12000.
  json::value o = s.open("p1", s.item(s.tea, 2) + "," + s.item(s.beer, 1));
  std::string id = str(o, "id");
  REQUIRE(o.at("grossMinor") == 12000);

  auto paid = s.pay(id, "pay-1", 5000, "card");
  REQUIRE(paid.status == 201);
  CHECK(paid.data().at("version") == 2);
  CHECK(paid.data().at("paidMinor") == 5000);
  CHECK(paid.data().at("dueMinor") == 7000);
  CHECK(paid.data().at("payments") ==
        json::value(json::array{json::object{
            {"paymentId", "pay-1"}, {"amountMinor", 5000}, {"method", "card"}, {"createdAt", kNow}}}));

  // A line edit moves the version on; the retry still answers, without a second payment.
  REQUIRE(s.add(id, 2, s.tea, 1).status == 201);  // gross 13500, due 8500
  auto retry = s.pay(id, "pay-1", 5000, "card");
  CHECK(retry.status == 200);
  CHECK(retry.data().at("payments").as_array().size() == 1);
  CHECK(retry.data().at("version") == 3);
  CHECK(retry.data().at("dueMinor") == 8500);

  // Same key, another payment: conflict.
  CHECK(s.pay(id, "pay-1", 5001, "card").error() == "idempotency_conflict");
  CHECK(s.pay(id, "pay-1", 5000, "cash").status == 409);

  CHECK(s.pay(id, "pay-2", 8501, "cash").error() == "payment_exceeds_due");
  CHECK(s.pay(id, "pay-2", 8501, "cash").status == 422);
  CHECK(s.pay(id, "pay-2", 0, "cash").error() == "invalid_amount");
  CHECK(s.edge
            .post(kBase + "/orders/" + id + "/payments", R"({"paymentId":"p","amountMinor":10.5})",
                  s.edge.acme_token)
            .error() == "invalid_amount");
  CHECK(s.edge.post(kBase + "/orders/" + id + "/payments", R"({"amountMinor":10})", s.edge.acme_token)
            .error() == "missing_field");
  CHECK(s.pay(id, "a/b", 10).error() == "invalid_field");
  CHECK(s.pay(id, "pay-2", 10, "  ").error() == "invalid_field");

  // The method defaults to cash.
  auto cash = s.edge.post(kBase + "/orders/" + id + "/payments", R"({"paymentId":"pay-2","amountMinor":500})",
                          s.edge.acme_token);
  REQUIRE(cash.status == 201);
  CHECK(cash.data().at("payments").as_array()[1].at("method") == "cash");
  CHECK(cash.data().at("version") == 4);

  // Ledger entries: c/<companyId>/orderpay/<branchId>/<businessDate>/<orderId>/<paymentId>.
  auto ledger = s.stored("/orderpay/");
  REQUIRE(ledger.size() == 2);
  CHECK(ledger[0].first.ends_with("/orderpay/" + s.branch + "/2026-11-18/" + id + "/pay-1"));
  CHECK(ledger[0].first.starts_with("c/cmp_"));
  CHECK(parsed(ledger[0].second) == json::value(json::object{{"orderId", id},
                                                             {"paymentId", "pay-1"},
                                                             {"branchId", s.branch},
                                                             {"businessDate", "2026-11-18"},
                                                             {"amountMinor", 5000},
                                                             {"method", "card"},
                                                             {"createdAt", kNow}}));
  CHECK(parsed(ledger[1].second).at("method") == "cash");

  // A paymentId belongs to its order: the same key on another order is a new payment.
  json::value other = s.open("p2", s.item(s.tea, 1));
  CHECK(s.pay(str(other, "id"), "pay-1", 1500, "card").status == 201);
}

TEST_CASE("restaurant orders: parallel retries of one paymentId make one payment") {
  Shop s;
  std::string id = str(s.open("pp", s.item(s.beer, 2)), "id");  // 18000
  const std::string url = s.edge.url();
  const std::string token = s.edge.acme_token;
  const std::string b = R"({"paymentId":"once","amountMinor":6000,"method":"card"})";
  std::vector<int> statuses(20);
  std::vector<std::thread> threads;
  for (int i = 0; i < 20; ++i)
    threads.emplace_back([&, i] {
      httplib::Client client(url);
      auto res = client.Post(kBase + "/orders/" + id + "/payments",
                             httplib::Headers{{"Authorization", "Bearer " + token}}, b, "application/json");
      statuses[i] = res ? res->status : 0;
    });
  for (auto& t : threads) t.join();
  CHECK(std::count(statuses.begin(), statuses.end(), 201) == 1);
  CHECK(std::count(statuses.begin(), statuses.end(), 200) == 19);
  auto o = s.edge.get(kBase + "/orders/" + id, s.edge.acme_token).data();
  CHECK(o.at("payments").as_array().size() == 1);
  CHECK(o.at("paidMinor") == 6000);
  CHECK(o.at("version") == 2);
  CHECK(s.stored("/orderpay/").size() == 1);
}

TEST_CASE("restaurant orders: close needs the total paid; a closed order refuses writes") {
  Shop s;
  std::string id = str(s.open("c1", s.item(s.tea, 2)), "id");  // 3000
  CHECK(s.pay(id, "half", 1000).status == 201);
  auto early = s.close(id);
  CHECK(early.status == 409);
  CHECK(early.error() == "order_not_paid");
  CHECK(s.pay(id, "rest", 2000).status == 201);
  CHECK(s.pay(id, "more", 1).error() == "payment_exceeds_due");

  s.edge.clock.advance_ms(60'000);
  auto closed = s.close(id);
  REQUIRE(closed.status == 200);
  CHECK(closed.data().at("status") == "closed");
  CHECK(closed.data().at("closedAt") == "2026-11-18T11:07:40.000Z");
  CHECK(closed.data().at("version") == 4);  // 1 + two payments + close
  CHECK(closed.data().at("dueMinor") == 0);
  CHECK(s.stored("/orderopen/").empty());

  auto check_closed = [](const Reply& r) {
    CHECK(r.status == 409);
    CHECK(r.error() == "order_not_open");
  };
  check_closed(s.close(id));
  check_closed(s.add(id, 4, s.tea, 1));
  check_closed(s.add(id, 1, s.tea, 1));  // order_not_open before invalid_version
  std::string line = str(closed.data().at("items").as_array()[0], "lineId");
  check_closed(
      s.edge.del(kBase + "/orders/" + id + "/items?lineId=" + line + "&version=4", s.edge.acme_token));
  check_closed(s.pay(id, "late", 1));
  // A retry of an applied payment still answers the order.
  auto retry = s.pay(id, "rest", 2000);
  CHECK(retry.status == 200);
  CHECK(retry.data().at("status") == "closed");
  CHECK(s.pay(id, "rest", 1999).error() == "idempotency_conflict");

  // An empty order closes at once.
  std::string empty = str(s.open("c2", ""), "id");
  CHECK(s.close(empty).status == 200);
}

TEST_CASE("restaurant orders: the board lists open orders of a branch and business date, oldest first") {
  Shop s;
  std::string a = str(s.open("b1", s.item(s.tea, 1)), "id");
  std::string b = str(s.open("b2", ""), "id");
  std::string c = str(s.open("b3", s.item(s.beer, 1)), "id");
  auto other = s.create(R"({"branchId":")" + s.other_branch + R"(","clientOrderId":"b4"})");
  REQUIRE(other.status == 201);
  CHECK(other.data().at("number") == 1);  // numbers are per branch
  REQUIRE(s.close(b).status == 200);

  auto board = s.board("branchId=" + s.branch);
  REQUIRE(board.status == 200);
  auto& list = board.data().as_array();
  REQUIRE(list.size() == 2);
  CHECK(list[0].at("id") == json::value(a));
  CHECK(list[0].at("number") == 1);
  CHECK(list[1].at("id") == json::value(c));
  CHECK(list[1].at("number") == 3);
  CHECK(list[1].at("items").as_array().size() == 1);
  CHECK(board.header("X-Total-Count") == "2");
  CHECK(s.board("branchId=" + s.branch + "&businessDate=2026-11-18").data() == board.data());
  CHECK(s.board("branchId=" + s.branch + "&businessDate=2026-11-17").data().as_array().empty());

  CHECK(s.board("").error() == "missing_field");
  CHECK(s.board("").status == 422);
  CHECK(s.board("branchId=br_nope").error() == "branch_not_found");
  CHECK(s.board("branchId=" + s.branch + "&businessDate=2026-13-01").error() == "invalid_date");
  std::string scoped = s.edge.token_with("acme", {"restaurant.branch:" + s.other_branch});
  CHECK(s.edge.get(kBase + "/orders/board?branchId=" + s.branch, scoped).error() == "branch_not_found");
  CHECK(s.edge.get(kBase + "/orders/board?branchId=" + s.other_branch, scoped).data().as_array().size() == 1);

  // 02:30 in Istanbul on the 19th (23:30Z on the 18th) is still business date the 18th: number 4 there.
  s.edge.clock.set_ms(TestEdge::kStart + 44'600'000);
  json::value late = s.open("b5", "");
  CHECK(late.at("businessDate") == "2026-11-18");
  CHECK(late.at("number") == 4);
  CHECK(s.board("branchId=" + s.branch).data().as_array().size() == 3);

  // 04:00 in Istanbul on the 19th: a new business date, numbers restart; the board defaults to the new day.
  s.edge.clock.set_ms(TestEdge::kStart + 50'000'000);
  json::value next = s.open("b6", "");
  CHECK(next.at("businessDate") == "2026-11-19");
  CHECK(next.at("number") == 1);
  auto today = s.board("branchId=" + s.branch).data().as_array();
  REQUIRE(today.size() == 1);
  CHECK(today[0].at("id") == next.at("id"));
  CHECK(s.board("branchId=" + s.branch + "&businessDate=2026-11-18").data().as_array().size() == 3);
  // A payment on yesterday's tab is filed under the business date it was taken.
  CHECK(s.pay(a, "late-pay", 1500).status == 201);
  CHECK(s.stored("/orderpay/" + s.branch + "/2026-11-19/" + a + "/late-pay").size() == 1);
}

TEST_CASE("restaurant orders: reads and writes follow branch permissions and company isolation") {
  Shop s;
  std::string id = str(s.open("r1", s.item(s.tea, 1)), "id");
  std::string viewer = s.edge.token_with("acme", {"restaurant.view"});
  std::string other = s.edge.token_with("acme", {"restaurant.branch:" + s.other_branch});
  std::string own = s.edge.token_with("acme", {"restaurant.branch:" + s.branch});

  CHECK(s.edge.get(kBase + "/orders/" + id, viewer).status == 200);
  CHECK(s.edge.get(kBase + "/orders/" + id, other).error() == "order_not_found");
  CHECK(s.edge.get(kBase + "/orders/" + id, own).status == 200);
  CHECK(s.edge.get("/api/restaurant/companies/globex/orders/" + id, s.edge.globex_token).error() ==
        "order_not_found");
  CHECK(s.edge.get(kBase + "/orders/ord_AAAAAAAAAAAAAAAA", s.edge.acme_token).status == 404);

  // Writes: a view-only token may see the order but not change it; another branch's token does not see it.
  auto forbidden = [](const Reply& r) {
    CHECK(r.status == 403);
    CHECK(r.error() == "forbidden_branch");
  };
  forbidden(s.edge.post(kBase + "/orders/" + id + "/items",
                        R"({"version":1,"productId":")" + s.tea + R"(","quantity":1})", viewer));
  forbidden(s.pay(id, "v", 1, "card", viewer));
  forbidden(s.edge.post(kBase + "/orders/" + id + "/close", "", viewer));
  CHECK(s.pay(id, "o", 1, "card", other).error() == "order_not_found");
  CHECK(s.edge.post("/api/restaurant/companies/globex/orders/" + id + "/close", "", s.edge.globex_token)
            .error() == "order_not_found");
  auto mine = s.edge.post(kBase + "/orders/" + id + "/items",
                          R"({"version":1,"productId":")" + s.tea + R"(","quantity":1})", own);
  CHECK(mine.status == 201);
}

TEST_CASE("restaurant orders: every order response names its lines `items`, as document 3 does") {
  Shop s;
  auto has_items = [](const json::value& order, std::size_t n) {
    CHECK(order.as_object().if_contains("lines") == nullptr);
    REQUIRE(order.as_object().if_contains("items") != nullptr);
    CHECK(order.at("items").as_array().size() == n);
  };
  std::string b = s.body("items-1", s.item(s.tea, 1));
  auto created = s.create(b);
  REQUIRE(created.status == 201);
  has_items(created.data(), 1);
  std::string id = str(created.data(), "id");
  auto replayed = s.create(b);
  REQUIRE(replayed.status == 200);
  has_items(replayed.data(), 1);
  auto added = s.add(id, 1, s.beer, 1);
  REQUIRE(added.status == 201);
  has_items(added.data(), 2);
  auto stale = s.add(id, 1, s.beer, 1);
  REQUIRE(stale.status == 409);
  has_items(stale.json.at("order"), 2);
  std::string beer_line = str(added.data().at("items").as_array()[1], "lineId");
  auto removed =
      s.edge.del(kBase + "/orders/" + id + "/items?lineId=" + beer_line + "&version=2", s.edge.acme_token);
  REQUIRE(removed.status == 200);
  has_items(removed.data(), 1);
  auto paid = s.pay(id, "items-pay", 1500);
  REQUIRE(paid.status == 201);
  has_items(paid.data(), 1);
  auto read = s.edge.get(kBase + "/orders/" + id, s.edge.acme_token);
  REQUIRE(read.status == 200);
  has_items(read.data(), 1);
  std::string other = str(s.open("items-2", s.item(s.tea, 2) + "," + s.item(s.beer, 1)), "id");
  auto board = s.board("branchId=" + s.branch);
  REQUIRE(board.status == 200);
  for (auto& o : board.data().as_array())
    if (str(o, "id") == other) has_items(o, 2);
  auto closed = s.close(id);
  REQUIRE(closed.status == 200);
  has_items(closed.data(), 1);
}

TEST_CASE("restaurant orders: a clientOrderId is scoped by branch, so another branch's use is not revealed") {
  Shop s;
  REQUIRE(s.create(s.body("shared-7", s.item(s.tea, 1))).status == 201);
  std::string scoped = s.edge.token_with("acme", {"restaurant.branch:" + s.other_branch});
  // The other branch's till picks the same id for its own order: a new order, not a 409 that would tell it
  // that branch Moda used the id.
  auto there = s.edge.post(
      kBase + "/orders", R"({"branchId":")" + s.other_branch + R"(","clientOrderId":"shared-7","items":[]})",
      scoped);
  CHECK(there.status == 201);
  CHECK(str(there.data(), "branchId") == s.other_branch);
  CHECK(there.data().at("number") == 1);
  // Within the branch the id still identifies one order.
  auto again = s.edge.post(
      kBase + "/orders", R"({"branchId":")" + s.other_branch + R"(","clientOrderId":"shared-7","items":[]})",
      scoped);
  CHECK(again.status == 200);
  CHECK(again.data().at("id") == there.data().at("id"));
}
