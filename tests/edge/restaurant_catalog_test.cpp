// Restaurant categories and vendors (per company) and tables (per branch): create, list, patch, delete.

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {}  // namespace

TEST_CASE("restaurant: categories and vendors CRUD") {
  TestEdge edge;
  for (auto [path, prefix, not_found] : {std::tuple{"/categories", "cat_", "category_not_found"},
                                         std::tuple{"/vendors", "ven_", "vendor_not_found"}}) {
    CAPTURE(path);
    auto created = edge.post(kBase + path, R"({"name":" Produce "})", edge.acme_token);
    REQUIRE(created.status == 201);
    std::string id = id_of(created);
    CHECK(id.rfind(prefix, 0) == 0);
    CHECK(created.json ==
          json::value(json::object{
              {"data",
               json::object{{"id", id}, {"name", "Produce"}, {"createdAt", kNow}, {"updatedAt", kNow}}}}));
    REQUIRE(edge.post(kBase + path, R"({"name":"Drinks"})", edge.acme_token).status == 201);

    auto list = edge.get(kBase + path, edge.acme_token);
    REQUIRE(list.status == 200);
    CHECK(list.header("X-Total-Count") == "2");
    REQUIRE(list.data().as_array().size() == 2);
    CHECK(list.data().as_array()[0].at("name") == "Drinks");
    CHECK(list.data().as_array()[1].at("name") == "Produce");
    auto page = edge.get(kBase + std::string(path) + "?limit=1&skip=1", edge.acme_token);
    REQUIRE(page.data().as_array().size() == 1);
    CHECK(page.data().as_array()[0].at("name") == "Produce");

    auto patched = edge.patch(kBase + path + "/" + id, R"({"name":"Vegetables"})", edge.acme_token);
    CHECK(patched.status == 200);
    CHECK(patched.data().at("name") == "Vegetables");
    auto bad = edge.patch(kBase + path + "/" + id, R"({"name":""})", edge.acme_token);
    CHECK(bad.status == 422);
    CHECK(bad.error() == "invalid_field");

    auto removed = edge.del(kBase + path + "/" + id, edge.acme_token);
    CHECK(removed.status == 200);
    CHECK(removed.data() == json::value(json::object{{"id", id}, {"deleted", true}}));
    auto again = edge.del(kBase + path + "/" + id, edge.acme_token);
    CHECK(again.status == 404);
    CHECK(again.error() == not_found);
    CHECK(edge.patch(kBase + path + "/" + id, R"({"name":"X"})", edge.acme_token).error() == not_found);
    CHECK(edge.get(kBase + path, edge.acme_token).data().as_array().size() == 1);

    auto missing = edge.post(kBase + path, "{}", edge.acme_token);
    CHECK(missing.status == 422);
    CHECK(missing.error() == "missing_field");
  }
}

TEST_CASE("restaurant: categories are company-wide writes and invisible to other companies") {
  TestEdge edge;
  std::string id = id_of(edge.post(kBase + "/categories", R"({"name":"Meat"})", edge.acme_token));
  auto other = edge.del("/api/restaurant/companies/globex/categories/" + id, edge.globex_token);
  CHECK(other.status == 404);
  CHECK(other.error() == "category_not_found");
  CHECK(edge.get("/api/restaurant/companies/globex/categories", edge.globex_token).data().as_array().empty());

  std::string viewer = edge.token_with("acme", {"restaurant.view"});
  CHECK(edge.get(kBase + "/categories", viewer).data().as_array().size() == 1);
  auto denied = edge.post(kBase + "/categories", R"({"name":"Fish"})", viewer);
  CHECK(denied.status == 403);
  CHECK(denied.error() == "forbidden");
  CHECK(edge.del(kBase + "/categories/" + id, viewer).error() == "forbidden");
}

TEST_CASE("restaurant: tables belong to a branch") {
  TestEdge edge;
  std::string a = id_of(edge.post(kBase + "/branches", R"({"name":"A"})", edge.acme_token));
  std::string b = id_of(edge.post(kBase + "/branches", R"({"name":"B"})", edge.acme_token));
  auto t1 = edge.post(kBase + "/tables", R"({"branchId":")" + a + R"(","name":"T1"})", edge.acme_token);
  REQUIRE(t1.status == 201);
  std::string t1_id = id_of(t1);
  CHECK(t1_id.rfind("tbl_", 0) == 0);
  CHECK(t1.data() ==
        json::value(json::object{
            {"id", t1_id}, {"branchId", a}, {"name", "T1"}, {"createdAt", kNow}, {"updatedAt", kNow}}));
  std::string t2_id =
      id_of(edge.post(kBase + "/tables", R"({"branchId":")" + b + R"(","name":"T2"})", edge.acme_token));

  CHECK(edge.get(kBase + "/tables", edge.acme_token).data().as_array().size() == 2);
  auto only_a = edge.get(kBase + "/tables?branchId=" + a, edge.acme_token);
  REQUIRE(only_a.data().as_array().size() == 1);
  CHECK(only_a.data().as_array()[0].at("id").as_string() == t1_id);

  auto unknown = edge.post(kBase + "/tables", R"({"branchId":"br_nope","name":"T"})", edge.acme_token);
  CHECK(unknown.status == 404);
  CHECK(unknown.error() == "branch_not_found");
  auto no_branch = edge.post(kBase + "/tables", R"({"name":"T"})", edge.acme_token);
  CHECK(no_branch.status == 422);
  CHECK(no_branch.error() == "missing_field");

  std::string scoped = edge.token_with("acme", {"restaurant.branch:" + a});
  auto scoped_list = edge.get(kBase + "/tables", scoped);
  REQUIRE(scoped_list.data().as_array().size() == 1);
  CHECK(scoped_list.data().as_array()[0].at("id").as_string() == t1_id);
  CHECK(edge.post(kBase + "/tables", R"({"branchId":")" + a + R"(","name":"T3"})", scoped).status == 201);
  auto denied = edge.post(kBase + "/tables", R"({"branchId":")" + b + R"(","name":"T4"})", scoped);
  CHECK(denied.status == 403);
  CHECK(denied.error() == "forbidden_branch");
  CHECK(edge.patch(kBase + "/tables/" + t2_id, R"({"name":"X"})", scoped).error() == "forbidden_branch");
  CHECK(edge.del(kBase + "/tables/" + t2_id, scoped).error() == "forbidden_branch");
  CHECK(edge.patch(kBase + "/tables/" + t1_id, R"({"name":"Window"})", scoped).data().at("name") == "Window");
  CHECK(edge.del(kBase + "/tables/" + t1_id, scoped).status == 200);
  CHECK(edge.del(kBase + "/tables/" + t1_id, scoped).error() == "table_not_found");
}

TEST_CASE("restaurant: GET by id for categories, vendors and tables; unknown and foreign ids are 404") {
  TestEdge edge;
  std::string branch = create(edge, "/branches", R"({"name":"Moda"})");
  std::string other = create(edge, "/branches", R"({"name":"Bebek"})");
  std::string globex_category = [&] {
    auto r =
        edge.post("/api/restaurant/companies/globex/categories", R"({"name":"Theirs"})", edge.globex_token);
    REQUIRE(r.status == 201);
    return id_of(r);
  }();
  for (auto [path, body, not_found] :
       {std::tuple{std::string("/categories"), std::string(R"({"name":"Produce"})"), "category_not_found"},
        std::tuple{std::string("/vendors"), std::string(R"({"name":"Metro"})"), "vendor_not_found"},
        std::tuple{std::string("/tables"), R"({"name":"T1","branchId":")" + branch + "\"}",
                   "table_not_found"}}) {
    CAPTURE(path);
    auto created = edge.post(kBase + path, body, edge.acme_token);
    REQUIRE(created.status == 201);
    auto read = edge.get(kBase + path + "/" + id_of(created), edge.acme_token);
    CHECK(read.status == 200);
    CHECK(read.data() == created.data());
    for (const std::string& id : {std::string("cat_unknown"), globex_category}) {
      auto missing = edge.get(kBase + path + "/" + id, edge.acme_token);
      CHECK(missing.status == 404);
      CHECK(missing.error() == not_found);
      CHECK(missing.json.as_object().contains("message"));
    }
  }
  // A table of a branch the caller cannot see is unknown to it.
  std::string table = create(edge, "/tables", R"({"name":"T2","branchId":")" + branch + "\"}");
  std::string scoped = edge.token_with("acme", {"restaurant.branch:" + other});
  CHECK(edge.get(kBase + "/tables/" + table, scoped).error() == "table_not_found");
  CHECK(edge.get(kBase + "/tables/" + table, edge.acme_token).status == 200);
}
