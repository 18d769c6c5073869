// Bad input of every kind, on every restaurant write: a 4xx in the restaurant error format, never a 500, and
// nothing changed. The bodies are malformed or mistyped versions of real requests (wrong JSON types in every
// member, out-of-range numbers, junk ids), sent to each write endpoint.

#include <doctest/doctest.h>

#include <vector>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

// Every member value that is wrong for any member of these APIs.
const std::vector<std::string> kBadValues = {"null",
                                             "true",
                                             "-1",
                                             "0.5",
                                             "1e300",
                                             "-1e300",
                                             "12345678901234567890123",
                                             R"("")",
                                             R"("x")",
                                             R"("\u0000")",
                                             "[]",
                                             "[1]",
                                             "{}",
                                             R"({"a":1})",
                                             R"("2026-13-40")",
                                             R"("2026-11-18T25:00:00Z")"};

// Whole bodies that are not what any endpoint takes.
const std::vector<std::string> kBadBodies = {"",  "null", "[]",       "\"text\"", "42",
                                             "{", "{}}",  "{\"a\":}", "\xff\xfe"};

// A snapshot of what the company has, to prove a refused request changed nothing.
std::string state(TestEdge& edge) {
  std::string out;
  for (std::string path : {"/branches", "/categories", "/vendors", "/tables", "/products", "/option-groups",
                           "/expenses", "/income", "/shifts", "/audit-log"})
    out += edge.get(kBase + path + (path == "/branches" ? "" : "?limit=200"), edge.acme_token).body;
  return out;
}

}  // namespace

TEST_CASE("restaurant writes refuse every malformed or mistyped body with a 4xx and change nothing") {
  TestEdge edge(unthrottled());
  std::string branch = create(edge, "/branches", R"({"name":"Moda"})");
  std::string category = create(edge, "/categories", R"({"name":"Food"})");
  std::string product = create(edge, "/products", R"({"name":"Soup","priceMinor":4500,"vatRateBps":1000})");
  auto order = edge.post(kBase + "/orders",
                         R"({"branchId":")" + branch + R"(","clientOrderId":"o1","items":[{"productId":")" +
                             product + R"(","quantity":1}]})",
                         edge.acme_token);
  REQUIRE(order.status == 201);
  std::string order_id = id_of(order);
  std::string shift = create(edge, "/shifts", R"({"branchId":")" + branch + R"(","openingFloatMinor":0})");
  std::string expense =
      create(edge, "/expenses",
             R"({"branchId":")" + branch + R"(","categoryId":")" + category +
                 R"(","grossMinor":100,"vatRateBps":0,"accrualDate":"2026-11-18","dueDate":"2026-11-20"})");

  // Each endpoint with a valid body (as member -> JSON text); every member is replaced by every bad value.
  struct Endpoint {
    std::string path;
    std::vector<std::pair<std::string, std::string>> members;
  };
  const std::string b = "\"" + branch + "\"";
  std::vector<Endpoint> endpoints = {
      {"/branches", {{"name", R"("Kadikoy")"}, {"dayCutoffHour", "4"}, {"timezone", R"("Europe/Istanbul")"}}},
      {"/categories", {{"name", R"("Drinks")"}}},
      {"/tables", {{"branchId", b}, {"name", R"("T9")"}}},
      {"/products", {{"name", R"("Tea")"}, {"priceMinor", "1500"}, {"vatRateBps", "1000"}}},
      {"/option-groups", {{"name", R"("Size")"}, {"minSelect", "0"}, {"maxSelect", "1"}}},
      {"/income",
       {{"branchId", b},
        {"businessDate", R"("2026-11-17")"},
        {"channel", R"("dine-in")"},
        {"grossMinor", "100"},
        {"commissionMinor", "0"}}},
      {"/expenses",
       {{"branchId", b},
        {"categoryId", "\"" + category + "\""},
        {"grossMinor", "100"},
        {"vatRateBps", "1000"},
        {"accrualDate", R"("2026-11-18")"},
        {"paidAt", R"("2026-11-18T10:00:00Z")"}}},
      {"/orders",
       {{"branchId", b},
        {"clientOrderId", R"("o2")"},
        {"items", R"([{"productId":")" + product + R"(","quantity":1}])"}}},
      {"/orders/" + order_id + "/items",
       {{"version", "1"}, {"productId", "\"" + product + "\""}, {"quantity", "1"}}},
      {"/orders/" + order_id + "/payments",
       {{"paymentId", R"("p1")"}, {"amountMinor", "100"}, {"method", R"("card")"}}},
      {"/shifts/" + shift + "/close", {{"countedCashMinor", "100"}}},
      {"/payables/" + expense + "/pay", {{"amountMinor", "100"}, {"paymentMethod", R"("bank")"}}},
      {"/expenses/import", {{"branchId", b}, {"csv", R"("accrualDate\n")"}, {"dryRun", "false"}}},
  };
  // Values some members legitimately take (a null vendor, a zero amount...) are not refusals; the check is
  // that nothing answers 5xx, that refusals use the error format, and that state only changes on a 2xx.
  std::string before = state(edge);
  int refused = 0;
  for (const auto& e : endpoints) {
    for (const auto& body : kBadBodies) {
      auto r = edge.post(kBase + e.path, body, edge.acme_token);
      INFO(e.path << " body " << body << " -> " << r.status << " " << r.body);
      CHECK(r.status >= 400);
      CHECK(r.status < 500);
      CHECK(!r.error().empty());
      ++refused;
    }
    for (std::size_t m = 0; m < e.members.size(); ++m) {
      for (const auto& bad : kBadValues) {
        std::string body = "{";
        for (std::size_t k = 0; k < e.members.size(); ++k) {
          if (k) body += ",";
          body += "\"" + e.members[k].first + "\":" + (k == m ? bad : e.members[k].second);
        }
        body += "}";
        auto r = edge.post(kBase + e.path, body, edge.acme_token);
        INFO(e.path << " " << body << " -> " << r.status << " " << r.body);
        CHECK(r.status < 500);
        if (r.status >= 400) {
          CHECK(!r.error().empty());
          CHECK(r.json.as_object().contains("message"));
          ++refused;
          CHECK(state(edge) == before);  // a refusal changed nothing
        } else {
          before = state(edge);  // an accepted odd-but-valid value (e.g. 0 commission): the new baseline
        }
      }
    }
  }
  CHECK(refused > 500);
}
