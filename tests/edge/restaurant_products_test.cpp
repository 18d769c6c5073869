// Restaurant menu: products (/products) and shared option groups (/option-groups), company-wide.

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {}  // namespace

TEST_CASE("restaurant products: create, read, list, patch and delete") {
  TestEdge edge;
  std::string cat = create(edge, "/categories", R"({"name":"Mains"})");
  std::string size = create(edge, "/option-groups",
                            R"({"name":"Size","minSelect":1,"maxSelect":1,)"
                            R"("options":[{"name":"Small"},{"name":"Large","priceDeltaMinor":500}]})");
  auto created = edge.post(kBase + "/products",
                           R"({"name":" Burger ","priceMinor":12000,"vatRateBps":1000,"categoryId":")" + cat +
                               R"(","optionGroupIds":[")" + size + R"("]})",
                           edge.acme_token);
  REQUIRE(created.status == 201);
  std::string id = id_of(created);
  CHECK(id.rfind("prd_", 0) == 0);
  json::object expected{
      {"id", id},           {"name", "Burger"},  {"priceMinor", 12000},
      {"vatRateBps", 1000}, {"categoryId", cat}, {"optionGroupIds", json::array{json::value(size)}},
      {"active", true},     {"createdAt", kNow}, {"updatedAt", kNow}};
  CHECK(created.data() == json::value(expected));
  CHECK(edge.get(kBase + "/products/" + id, edge.acme_token).data() == json::value(expected));

  // Defaults: no category, no groups, active.
  std::string tea = create(edge, "/products", R"({"name":"Tea","priceMinor":1500,"vatRateBps":1000})");
  std::string ayran = create(edge, "/products",
                             R"({"name":"Ayran","priceMinor":2000,"vatRateBps":1000,)"
                             R"("active":false,"categoryId":null})");
  auto list = edge.get(kBase + "/products", edge.acme_token);
  REQUIRE(list.status == 200);
  CHECK(list.header("X-Total-Count") == "3");
  auto& arr = list.data().as_array();
  REQUIRE(arr.size() == 3);
  CHECK(arr[0].at("name") == "Ayran");  // by name
  CHECK(arr[0].at("categoryId").is_null());
  CHECK(arr[1].at("name") == "Burger");
  CHECK(arr[2].at("optionGroupIds") == json::array());
  auto active = edge.get(kBase + "/products?activeOnly=true&limit=1&skip=1", edge.acme_token);
  CHECK(active.header("X-Total-Count") == "2");
  REQUIRE(active.data().as_array().size() == 1);
  CHECK(active.data().as_array()[0].at("id") == json::value(tea));
  CHECK(edge.get(kBase + "/products?categoryId=" + cat, edge.acme_token).data().as_array().size() == 1);

  edge.clock.advance_ms(1000);
  auto patched = edge.patch(kBase + "/products/" + ayran,
                            R"({"priceMinor":2500,"active":true,"optionGroupIds":[]})", edge.acme_token);
  REQUIRE(patched.status == 200);
  CHECK(patched.data().at("priceMinor") == 2500);
  CHECK(patched.data().at("active") == true);
  CHECK(patched.data().at("name") == "Ayran");
  CHECK(patched.data().at("createdAt") == kNow);
  CHECK(patched.data().at("updatedAt") == "2026-11-18T11:06:41.000Z");

  auto del = edge.del(kBase + "/products/" + ayran, edge.acme_token);
  CHECK(del.status == 200);
  CHECK(del.data() == json::value(json::object{{"id", ayran}, {"deleted", true}}));
  CHECK(edge.get(kBase + "/products/" + ayran, edge.acme_token).error() == "product_not_found");
  CHECK(edge.del(kBase + "/products/" + ayran, edge.acme_token).status == 404);
  CHECK(edge.patch(kBase + "/products/prd_nope", R"({"name":"x"})", edge.acme_token).error() ==
        "product_not_found");

  // Another company sees none of it.
  const std::string globex = "/api/restaurant/companies/globex";
  CHECK(edge.get(globex + "/products/" + id, edge.globex_token).status == 404);
  CHECK(edge.get(globex + "/products", edge.globex_token).data().as_array().empty());
  CHECK(edge.patch(globex + "/products/" + id, R"({"name":"x"})", edge.globex_token).status == 404);
  CHECK(edge.del(globex + "/products/" + id, edge.globex_token).status == 404);
}

TEST_CASE("restaurant products: validation and permissions") {
  TestEdge edge;
  std::string foreign_cat;
  {
    auto r = edge.post("/api/restaurant/companies/globex/categories", R"({"name":"X"})", edge.globex_token);
    REQUIRE(r.status == 201);
    foreign_cat = id_of(r);
  }
  auto check = [&](const std::string& body, int status, const std::string& code) {
    auto r = edge.post(kBase + "/products", body, edge.acme_token);
    CHECK_MESSAGE(r.status == status, body);
    CHECK_MESSAGE(r.error() == code, body);
  };
  check(R"({"name":"T","priceMinor":100,"vatRateBps":0.2})", 422, "vat_rate_invalid");
  check(R"({"name":"T","priceMinor":100,"vatRateBps":18.5})", 422, "vat_rate_invalid");
  check(R"({"name":"T","priceMinor":100,"vatRateBps":10001})", 422, "vat_rate_invalid");
  check(R"({"name":"T","priceMinor":100,"vatRateBps":-1})", 422, "vat_rate_invalid");
  check(R"({"name":"T","priceMinor":100,"vatRateBps":"20"})", 422, "invalid_field");
  check(R"({"name":"T","priceMinor":100})", 422, "missing_field");
  check(R"({"name":"T","priceMinor":12.5,"vatRateBps":800})", 422, "invalid_amount");
  check(R"({"name":"T","priceMinor":-1,"vatRateBps":800})", 422, "invalid_amount");
  check(R"({"name":"T","vatRateBps":800})", 422, "missing_field");
  check(R"({"priceMinor":1,"vatRateBps":800})", 422, "missing_field");
  check(R"({"name":"  ","priceMinor":1,"vatRateBps":800})", 422, "invalid_field");
  check(R"({"name":"T","priceMinor":1,"vatRateBps":800,"active":"yes"})", 422, "invalid_field");
  check(R"({"name":"T","priceMinor":1,"vatRateBps":800,"categoryId":"cat_nope"})", 404, "category_not_found");
  check(R"({"name":"T","priceMinor":1,"vatRateBps":800,"categoryId":")" + foreign_cat + R"("})", 404,
        "category_not_found");
  check(R"({"name":"T","priceMinor":1,"vatRateBps":800,"optionGroupIds":["opg_nope"]})", 404,
        "option_group_not_found");
  check(R"({"name":"T","priceMinor":1,"vatRateBps":800,"optionGroupIds":"opg"})", 422, "invalid_field");
  check("[1]", 400, "invalid_body");
  check("{", 400, "invalid_json");
  CHECK(edge.get(kBase + "/products", edge.acme_token).data().as_array().empty());
  // 0 % and 100 % are valid rates; a zero price is valid.
  check(R"({"name":"Water","priceMinor":0,"vatRateBps":0})", 201, "");
  check(R"({"name":"Odd","priceMinor":1,"vatRateBps":10000})", 201, "");

  std::string id = create(edge, "/products", R"({"name":"Tea","priceMinor":1500,"vatRateBps":1000})");
  CHECK(edge.patch(kBase + "/products/" + id, R"({"vatRateBps":0.08})", edge.acme_token).error() ==
        "vat_rate_invalid");

  // Writes need restaurant.manage; reads restaurant.view (a branch token reads the shared menu).
  std::string viewer = edge.token_with("acme", {"restaurant.view"});
  std::string branch_token = edge.token_with("acme", {"restaurant.branch:br_x"});
  for (const std::string& token : {viewer, branch_token}) {
    auto post = edge.post(kBase + "/products", R"({"name":"T","priceMinor":1,"vatRateBps":0})", token);
    CHECK(post.status == 403);
    CHECK(post.error() == "forbidden");
    CHECK(edge.patch(kBase + "/products/" + id, R"({"name":"x"})", token).error() == "forbidden");
    CHECK(edge.del(kBase + "/products/" + id, token).error() == "forbidden");
    CHECK(edge.post(kBase + "/option-groups", R"({"name":"G"})", token).error() == "forbidden");
    CHECK(edge.get(kBase + "/products/" + id, token).status == 200);
    CHECK(edge.get(kBase + "/option-groups", token).status == 200);
  }
}

TEST_CASE("restaurant option groups: options get ids, patches keep them, deleting detaches products") {
  TestEdge edge;
  auto created =
      edge.post(kBase + "/option-groups",
                R"({"name":"Extras","minSelect":0,"maxSelect":2,"options":[)"
                R"({"name":"Cheese","priceDeltaMinor":150},{"name":"Bacon","priceDeltaMinor":250}]})",
                edge.acme_token);
  REQUIRE(created.status == 201);
  std::string id = id_of(created);
  CHECK(id.rfind("opg_", 0) == 0);
  auto& opts = created.data().at("options").as_array();
  REQUIRE(opts.size() == 2);
  std::string cheese(opts[0].at("id").as_string());
  CHECK(cheese.rfind("opt_", 0) == 0);
  CHECK(opts[0] == json::value(json::object{{"id", cheese}, {"name", "Cheese"}, {"priceDeltaMinor", 150}}));
  CHECK(created.data().at("minSelect") == 0);
  CHECK(created.data().at("maxSelect") == 2);
  CHECK(created.data().at("createdAt") == kNow);

  // Defaults: minSelect 0, maxSelect 1, no options, delta 0.
  auto plain = edge.post(kBase + "/option-groups", R"({"name":"Sauce","options":[{"name":"Ketchup"}]})",
                         edge.acme_token);
  REQUIRE(plain.status == 201);
  CHECK(plain.data().at("minSelect") == 0);
  CHECK(plain.data().at("maxSelect") == 1);
  CHECK(plain.data().at("options").as_array()[0].at("priceDeltaMinor") == 0);

  auto bad = [&](const std::string& body, const std::string& code) {
    auto r = edge.post(kBase + "/option-groups", body, edge.acme_token);
    CHECK_MESSAGE(r.error() == code, body);
    CHECK_MESSAGE(r.status == 422, body);
  };
  bad(R"({"name":"G","minSelect":2,"maxSelect":1,"options":[{"name":"a"},{"name":"b"}]})", "invalid_field");
  bad(R"({"name":"G","minSelect":1,"maxSelect":1})", "invalid_field");  // nothing to pick
  bad(R"({"name":"G","maxSelect":0})", "invalid_field");
  bad(R"({"name":"G","minSelect":-1})", "invalid_field");
  bad(R"({"name":"G","options":[{"name":"a","priceDeltaMinor":-5}]})", "invalid_amount");
  bad(R"({"name":"G","options":[{"name":"a","priceDeltaMinor":1.5}]})", "invalid_amount");
  bad(R"({"name":"G","options":[{"priceDeltaMinor":1}]})", "missing_field");
  bad(R"({"name":"G","options":[{"id":"opt_made_up","name":"a"}]})", "invalid_field");
  bad(R"({"name":"G","options":"a"})", "invalid_field");
  bad(R"({"minSelect":0})", "missing_field");

  // PATCH: options named by id keep it, new ones get an id, unknown ids are refused.
  auto patched = edge.patch(kBase + "/option-groups/" + id,
                            R"({"maxSelect":1,"options":[{"id":")" + cheese +
                                R"(","name":"Cheddar","priceDeltaMinor":200},{"name":"Egg"}]})",
                            edge.acme_token);
  REQUIRE(patched.status == 200);
  auto& after = patched.data().at("options").as_array();
  REQUIRE(after.size() == 2);
  CHECK(after[0] == json::value(json::object{{"id", cheese}, {"name", "Cheddar"}, {"priceDeltaMinor", 200}}));
  CHECK(after[1].at("id").as_string().starts_with("opt_"));
  CHECK(after[1].at("id") != opts[1].at("id"));
  CHECK(patched.data().at("maxSelect") == 1);
  CHECK(edge.patch(kBase + "/option-groups/" + id, R"({"options":[{"id":"opt_other","name":"x"}]})",
                   edge.acme_token)
            .error() == "invalid_field");
  CHECK(edge.patch(kBase + "/option-groups/" + id, R"({"minSelect":3})", edge.acme_token).error() ==
        "invalid_field");
  CHECK(edge.patch(kBase + "/option-groups/opg_nope", R"({"name":"x"})", edge.acme_token).error() ==
        "option_group_not_found");
  CHECK(edge.get(kBase + "/option-groups/" + id, edge.acme_token).data() == patched.data());

  auto list = edge.get(kBase + "/option-groups", edge.acme_token);
  CHECK(list.header("X-Total-Count") == "2");
  CHECK(list.data().as_array()[0].at("name") == "Extras");
  CHECK(edge.get("/api/restaurant/companies/globex/option-groups/" + id, edge.globex_token).status == 404);

  // Deleting a group takes it off the products that offered it.
  std::string sauce = id_of(plain);
  std::string burger = create(edge, "/products",
                              R"({"name":"Burger","priceMinor":100,"vatRateBps":0,"optionGroupIds":[")" + id +
                                  R"(",")" + sauce + R"("]})");
  auto del = edge.del(kBase + "/option-groups/" + id, edge.acme_token);
  CHECK(del.status == 200);
  CHECK(edge.get(kBase + "/option-groups/" + id, edge.acme_token).error() == "option_group_not_found");
  CHECK(edge.get(kBase + "/products/" + burger, edge.acme_token).data().at("optionGroupIds") ==
        json::array{json::value(sauce)});
  CHECK(edge.del(kBase + "/option-groups/" + id, edge.acme_token).error() == "option_group_not_found");
}
