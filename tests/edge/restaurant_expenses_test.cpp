// Restaurant expenses: POST /expenses (validation, derived VAT, references, branch access) and the reads
// GET /expenses and GET /expenses/{id}. VAT: vatMinor = round_half_up(gross * bps / (10000 + bps)).

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {

// As create, for company globex.
std::string create_globex(TestEdge& edge, const std::string& path, const std::string& body) {
  auto r = edge.post("/api/restaurant/companies/globex" + path, body, edge.globex_token);
  REQUIRE(r.status == 201);
  return id_of(r);
}

// A branch, a category and a vendor of acme.
struct Setup {
  explicit Setup(TestEdge& edge)
      : branch(create(edge, "/branches", R"({"name":"Moda"})")),
        category(create(edge, "/categories", R"({"name":"Produce"})")),
        vendor(create(edge, "/vendors", R"({"name":"Metro"})")) {}
  std::string branch, category, vendor;

  // An expense body with the required members and `rest` appended.
  std::string body(const std::string& rest = "", const std::string& branch_id = "") const {
    return R"({"branchId":")" + (branch_id.empty() ? branch : branch_id) + R"(","categoryId":")" + category +
           R"(","grossMinor":10000,"vatRateBps":2000,"accrualDate":"2026-11-10")" + rest + "}";
  }
};
}  // namespace

TEST_CASE("restaurant expenses: create stores the derived VAT breakdown") {
  TestEdge edge;
  Setup s(edge);
  auto r = edge.post(
      kBase + "/expenses",
      R"({"branchId":")" + s.branch + R"(","categoryId":")" + s.category + R"(","vendorId":")" + s.vendor +
          R"(","grossMinor":11800,"vatRateBps":1800,"accrualDate":"2026-11-10",)"
          R"("dueDate":"2026-11-25","paidAt":"2026-11-17T15:30:00+03:00","paymentMethod":" card ",)"
          R"("isVatDeductible":true,"receiptUrl":"https://cdn.example/r/1.jpg"})",
      edge.acme_token);
  REQUIRE(r.status == 201);
  std::string id = id_of(r);
  CHECK(id.rfind("exp_", 0) == 0);
  // 11800 * 1800 / 11800 = 1800 exactly; net 10000; deductible, so the cost is the net.
  json::object expected{{"id", id},
                        {"branchId", s.branch},
                        {"categoryId", s.category},
                        {"vendorId", s.vendor},
                        {"grossMinor", 11800},
                        {"vatRateBps", 1800},
                        {"netMinor", 10000},
                        {"vatMinor", 1800},
                        {"costMinor", 10000},
                        {"accrualDate", "2026-11-10"},
                        {"dueDate", "2026-11-25"},
                        {"paidAt", "2026-11-17T12:30:00.000Z"},
                        {"paymentMethod", "card"},
                        {"isVatDeductible", true},
                        {"receiptUrl", "https://cdn.example/r/1.jpg"},
                        {"createdAt", kNow},
                        {"updatedAt", kNow}};
  CHECK(r.json == json::value(json::object{{"data", expected}}));
  auto read = edge.get(kBase + "/expenses/" + id, edge.acme_token);
  REQUIRE(read.status == 200);
  CHECK(read.data() == json::value(expected));
}

TEST_CASE("restaurant expenses: defaults, ignored client breakdown, non-deductible cost") {
  TestEdge edge;
  Setup s(edge);
  // The client's netMinor/vatMinor/costMinor are ignored: 10000 at 20 % is 10000*2000/12000 = 1666.67 ->
  // vat 1667, net 8333.
  auto r = edge.post(kBase + "/expenses",
                     s.body(R"(,"netMinor":1,"vatMinor":2,"costMinor":3,"vendorId":null)"), edge.acme_token);
  REQUIRE(r.status == 201);
  const auto& d = r.data();
  CHECK(d.at("netMinor") == 8333);
  CHECK(d.at("vatMinor") == 1667);
  CHECK(d.at("costMinor") == 8333);
  CHECK(d.at("vendorId").is_null());
  CHECK(d.at("dueDate").is_null());
  CHECK(d.at("paidAt").is_null());
  CHECK(d.at("paymentMethod") == "cash");
  CHECK(d.at("isVatDeductible") == true);
  CHECK(d.at("receiptUrl").is_null());

  // Non-deductible VAT stays in the cost: 999 at 20 % -> 999*2000/12000 = 166.5 -> 167 (half up), net 832,
  // cost 999.
  auto nd = edge.post(
      kBase + "/expenses",
      R"({"branchId":")" + s.branch + R"(","categoryId":")" + s.category +
          R"(","grossMinor":999,"vatRateBps":2000,"accrualDate":"2026-11-10","isVatDeductible":false})",
      edge.acme_token);
  REQUIRE(nd.status == 201);
  CHECK(nd.data().at("vatMinor") == 167);
  CHECK(nd.data().at("netMinor") == 832);
  CHECK(nd.data().at("costMinor") == 999);
  CHECK(nd.data().at("isVatDeductible") == false);

  // Rate 0 and gross 0 are allowed.
  auto zero = edge.post(kBase + "/expenses",
                        R"({"branchId":")" + s.branch + R"(","categoryId":")" + s.category +
                            R"(","grossMinor":0,"vatRateBps":0,"accrualDate":"2026-11-10"})",
                        edge.acme_token);
  REQUIRE(zero.status == 201);
  CHECK(zero.data().at("vatMinor") == 0);
}

TEST_CASE("restaurant expenses: validation errors") {
  TestEdge edge;
  Setup s(edge);
  auto check = [&](const std::string& body, int status, const std::string& code) {
    auto r = edge.post(kBase + "/expenses", body, edge.acme_token);
    CHECK_MESSAGE(r.status == status, body);
    CHECK_MESSAGE(r.error() == code, body);
  };
  const std::string head = R"({"branchId":")" + s.branch + R"(","categoryId":")" + s.category + R"(",)";
  check(head + R"("grossMinor":100.5,"vatRateBps":2000,"accrualDate":"2026-11-10"})", 422, "invalid_amount");
  check(head + R"("grossMinor":-1,"vatRateBps":2000,"accrualDate":"2026-11-10"})", 422, "invalid_amount");
  check(head + R"("grossMinor":"100","vatRateBps":2000,"accrualDate":"2026-11-10"})", 422, "invalid_field");
  check(head + R"("vatRateBps":2000,"accrualDate":"2026-11-10"})", 422, "missing_field");
  check(head + R"("grossMinor":100,"vatRateBps":0.2,"accrualDate":"2026-11-10"})", 422, "vat_rate_invalid");
  check(head + R"("grossMinor":100,"vatRateBps":20.5,"accrualDate":"2026-11-10"})", 422, "vat_rate_invalid");
  check(head + R"("grossMinor":100,"vatRateBps":10001,"accrualDate":"2026-11-10"})", 422, "vat_rate_invalid");
  check(head + R"("grossMinor":100,"vatRateBps":-1,"accrualDate":"2026-11-10"})", 422, "vat_rate_invalid");
  check(head + R"("grossMinor":100,"vatRateBps":"2000","accrualDate":"2026-11-10"})", 422, "invalid_field");
  check(head + R"("grossMinor":100,"accrualDate":"2026-11-10"})", 422, "missing_field");
  check(head + R"("grossMinor":100,"vatRateBps":2000})", 422, "missing_field");
  check(head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-31"})", 422, "invalid_date");
  check(head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-10","dueDate":"soon"})", 422,
        "invalid_date");
  check(head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-10","paidAt":"2026-11-10"})", 422,
        "invalid_timestamp");
  check(head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-10","paymentMethod":" "})", 422,
        "invalid_field");
  check(head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-10","isVatDeductible":"no"})",
        422, "invalid_field");
  check(head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-10","receiptUrl":")" +
            std::string(2049, 'a') + R"("})",
        422, "invalid_field");
  check(head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-10","vendorId":5})", 422,
        "invalid_field");
  check(R"({"categoryId":"x","grossMinor":1,"vatRateBps":0,"accrualDate":"2026-11-10"})", 422,
        "missing_field");
  check(R"({"branchId":")" + s.branch + R"(","grossMinor":1,"vatRateBps":0,"accrualDate":"2026-11-10"})", 422,
        "missing_field");
  check("[1]", 400, "invalid_body");
  check("{", 400, "invalid_json");
  // A receipt URL of exactly 2048 characters is fine.
  CHECK(edge.post(kBase + "/expenses",
                  head + R"("grossMinor":100,"vatRateBps":2000,"accrualDate":"2026-11-10","receiptUrl":")" +
                      std::string(2048, 'a') + R"("})",
                  edge.acme_token)
            .status == 201);
  CHECK(edge.get(kBase + "/expenses", edge.acme_token).header("X-Total-Count") == "1");
}

TEST_CASE("restaurant expenses: branch, category and vendor references") {
  TestEdge edge;
  Setup s(edge);
  auto check = [&](const std::string& body, int status, const std::string& code,
                   const std::string& token = "") {
    auto r = edge.post(kBase + "/expenses", body, token.empty() ? edge.acme_token : token);
    CHECK_MESSAGE(r.status == status, body);
    CHECK_MESSAGE(r.error() == code, body);
  };
  std::string g_branch = create_globex(edge, "/branches", R"({"name":"G"})");
  std::string g_category = create_globex(edge, "/categories", R"({"name":"G"})");
  std::string g_vendor = create_globex(edge, "/vendors", R"({"name":"G"})");

  check(s.body("", "br_nope"), 404, "branch_not_found");
  check(s.body("", g_branch), 404, "branch_not_found");
  const std::string tail = R"(,"grossMinor":1,"vatRateBps":0,"accrualDate":"2026-11-10"})";
  check(R"({"branchId":")" + s.branch + R"(","categoryId":"cat_nope")" + tail, 404, "category_not_found");
  check(R"({"branchId":")" + s.branch + R"(","categoryId":")" + g_category + "\"" + tail, 404,
        "category_not_found");
  check(R"({"branchId":")" + s.branch + R"(","categoryId":"a/b")" + tail, 404, "category_not_found");
  check(s.body(R"(,"vendorId":"ven_nope")"), 404, "vendor_not_found");
  check(s.body(R"(,"vendorId":")" + g_vendor + "\""), 404, "vendor_not_found");
  check(s.body(R"(,"vendorId":"")"), 404, "vendor_not_found");

  std::string other = create(edge, "/branches", R"({"name":"Other"})");
  std::string scoped = edge.token_with("acme", {"restaurant.branch:" + s.branch});
  CHECK(edge.post(kBase + "/expenses", s.body(), scoped).status == 201);
  check(s.body("", other), 403, "forbidden_branch", scoped);
  // The permission check comes before the branch lookup.
  check(s.body("", "br_nope"), 403, "forbidden_branch", scoped);
  check(s.body(), 403, "forbidden_branch", edge.token_with("acme", {"restaurant.view"}));
  check(s.body(), 401, "unauthorized", "stk_nope");
  CHECK(edge.get(kBase + "/expenses", edge.acme_token).header("X-Total-Count") == "1");
}

TEST_CASE("restaurant expenses: list and read back") {
  TestEdge edge;
  Setup s(edge);
  std::string other = create(edge, "/branches", R"({"name":"Other"})");
  auto add = [&](const std::string& branch, const char* day) {
    auto r = edge.post(kBase + "/expenses",
                       R"({"branchId":")" + branch + R"(","categoryId":")" + s.category +
                           R"(","grossMinor":100,"vatRateBps":800,"accrualDate":")" + day + "\"}",
                       edge.acme_token);
    REQUIRE(r.status == 201);
    return id_of(r);
  };
  std::string e14 = add(s.branch, "2026-11-14");
  std::string e16 = add(other, "2026-11-16");
  std::string e15 = add(s.branch, "2026-11-15");
  std::string e17 = add(s.branch, "2026-11-17");

  auto ids = [](const testing::Reply& r) {
    std::vector<std::string> out;
    for (auto& e : r.data().as_array()) out.emplace_back(e.at("id").as_string());
    return out;
  };
  auto all = edge.get(kBase + "/expenses", edge.acme_token);
  REQUIRE(all.status == 200);
  CHECK(all.header("X-Total-Count") == "4");
  CHECK(ids(all) == std::vector<std::string>{e14, e15, e16, e17});
  CHECK(ids(edge.get(kBase + "/expenses?from=2026-11-15&to=2026-11-16", edge.acme_token)) ==
        std::vector<std::string>{e15, e16});
  CHECK(ids(edge.get(kBase + "/expenses?branchId=" + s.branch + "&from=2026-11-15", edge.acme_token)) ==
        std::vector<std::string>{e15, e17});
  auto page = edge.get(kBase + "/expenses?limit=2&skip=1", edge.acme_token);
  CHECK(page.header("X-Total-Count") == "4");
  CHECK(ids(page) == std::vector<std::string>{e15, e16});
  CHECK(edge.get(kBase + "/expenses?from=2026-13-01", edge.acme_token).error() == "invalid_date");
  CHECK(edge.get(kBase + "/expenses?limit=201", edge.acme_token).error() == "invalid_field");
  auto unknown = edge.get(kBase + "/expenses?branchId=br_nope", edge.acme_token);
  CHECK(unknown.status == 404);
  CHECK(unknown.error() == "branch_not_found");

  // A token limited to `other` sees only its expenses.
  std::string scoped = edge.token_with("acme", {"restaurant.branch:" + other});
  CHECK(ids(edge.get(kBase + "/expenses", scoped)) == std::vector<std::string>{e16});
  CHECK(edge.get(kBase + "/expenses?branchId=" + s.branch, scoped).error() == "branch_not_found");
  CHECK(edge.get(kBase + "/expenses/" + e16, scoped).status == 200);
  auto hidden = edge.get(kBase + "/expenses/" + e14, scoped);
  CHECK(hidden.status == 404);
  CHECK(hidden.error() == "expense_not_found");

  CHECK(edge.get(kBase + "/expenses/exp_nope", edge.acme_token).error() == "expense_not_found");
  // Another company's token never sees acme's expenses.
  auto foreign = edge.get("/api/restaurant/companies/globex/expenses/" + e14, edge.globex_token);
  CHECK(foreign.status == 404);
  CHECK(foreign.error() == "expense_not_found");
  CHECK(edge.get("/api/restaurant/companies/globex/expenses", edge.globex_token).data().as_array().empty());
  CHECK(edge.get(kBase + "/expenses/" + e14, edge.globex_token).error() == "company_not_found");
}
