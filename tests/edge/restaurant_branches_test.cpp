// Restaurant branches under /api/restaurant/companies/{slug}/branches and the restaurant request context
// (authentication, error format, branch-scoped tokens).

#include <doctest/doctest.h>

#include "restaurant_support.h"
#include "test_edge.h"

using testing::TestEdge;
namespace json = core::json;
using namespace restaurant_test;

namespace {}  // namespace

TEST_CASE("restaurant: creating a branch answers 201 with the stored branch and defaults") {
  TestEdge edge;
  auto created = edge.post(kBase + "/branches", R"({"name":"  Kadıköy  "})", edge.acme_token);
  REQUIRE(created.status == 201);
  std::string id = id_of(created);
  CHECK(id.rfind("br_", 0) == 0);
  json::object expected{{"id", id},
                        {"name", "Kadıköy"},
                        {"address", nullptr},
                        {"dayCutoffHour", 4},
                        {"order", 0},
                        {"active", true},
                        {"timezone", "Europe/Istanbul"},
                        {"createdAt", kNow},
                        {"updatedAt", kNow}};
  CHECK(created.json == json::value(json::object{{"data", expected}}));

  auto full = edge.post(kBase + "/branches",
                        R"({"name":"Moda","address":"Moda Cd. 1","dayCutoffHour":0,"order":2,"active":false,)"
                        R"("timezone":"Europe/Berlin"})",
                        edge.acme_token);
  REQUIRE(full.status == 201);
  CHECK(full.data().at("address") == "Moda Cd. 1");
  CHECK(full.data().at("dayCutoffHour") == 0);
  CHECK(full.data().at("order") == 2);
  CHECK(full.data().at("active") == false);
  CHECK(full.data().at("timezone") == "Europe/Berlin");

  auto got = edge.get(kBase + "/branches/" + id, edge.acme_token);
  CHECK(got.status == 200);
  CHECK(got.data() == json::value(expected));
}

TEST_CASE("restaurant: listing branches sorts by order then name and filters activeOnly") {
  TestEdge edge;
  REQUIRE(edge.post(kBase + "/branches", R"({"name":"B","order":1})", edge.acme_token).status == 201);
  REQUIRE(
      edge.post(kBase + "/branches", R"({"name":"A","order":1,"active":false})", edge.acme_token).status ==
      201);
  REQUIRE(edge.post(kBase + "/branches", R"({"name":"C","order":0})", edge.acme_token).status == 201);
  auto all = edge.get(kBase + "/branches", edge.acme_token);
  REQUIRE(all.status == 200);
  auto& arr = all.data().as_array();
  REQUIRE(arr.size() == 3);
  CHECK(arr[0].at("name") == "C");
  CHECK(arr[1].at("name") == "A");
  CHECK(arr[2].at("name") == "B");
  auto active = edge.get(kBase + "/branches?activeOnly=true", edge.acme_token);
  REQUIRE(active.data().as_array().size() == 2);
  CHECK(active.data().as_array()[1].at("name") == "B");
  CHECK(edge.get(kBase + "/branches?activeOnly=false", edge.acme_token).data().as_array().size() == 3);
  auto bad = edge.get(kBase + "/branches?activeOnly=maybe", edge.acme_token);
  CHECK(bad.status == 422);
  CHECK(bad.error() == "invalid_field");
  // Another company sees none of them.
  CHECK(edge.get("/api/restaurant/companies/globex/branches", edge.globex_token).data().as_array().empty());
}

TEST_CASE("restaurant: patching a branch changes only the given fields") {
  TestEdge edge;
  auto created = edge.post(kBase + "/branches", R"({"name":"Moda","address":"x"})", edge.acme_token);
  std::string id = id_of(created);
  edge.clock.advance_ms(1000);
  auto patched = edge.patch(kBase + "/branches/" + id, R"({"dayCutoffHour":6,"address":null,"active":false})",
                            edge.acme_token);
  REQUIRE(patched.status == 200);
  CHECK(patched.data().at("name") == "Moda");
  CHECK(patched.data().at("address").is_null());
  CHECK(patched.data().at("dayCutoffHour") == 6);
  CHECK(patched.data().at("active") == false);
  CHECK(patched.data().at("createdAt") == kNow);
  CHECK(patched.data().at("updatedAt") == "2026-11-18T11:06:41.000Z");
  CHECK(edge.get(kBase + "/branches/" + id, edge.acme_token).data() == patched.data());

  auto missing = edge.patch(kBase + "/branches/br_nope", R"({"name":"X"})", edge.acme_token);
  CHECK(missing.status == 404);
  CHECK(missing.json ==
        json::value(json::object{{"error", "branch_not_found"}, {"message", "branch not found"}}));
}

TEST_CASE("restaurant: branch validation errors") {
  TestEdge edge;
  auto check = [&](const std::string& body, int status, const std::string& code) {
    auto r = edge.post(kBase + "/branches", body, edge.acme_token);
    CHECK_MESSAGE(r.status == status, body);
    CHECK_MESSAGE(r.error() == code, body);
    CHECK(r.json.as_object().contains("message"));
  };
  check("{}", 422, "missing_field");
  check(R"({"name":"   "})", 422, "invalid_field");
  check(R"({"name":5})", 422, "invalid_field");
  check(R"({"name":"A","dayCutoffHour":24})", 422, "invalid_cutoff_hour");
  check(R"({"name":"A","dayCutoffHour":-1})", 422, "invalid_cutoff_hour");
  check(R"({"name":"A","dayCutoffHour":4.5})", 422, "invalid_field");
  check(R"({"name":"A","timezone":"Mars/Olympus"})", 422, "invalid_time_zone");
  check(R"({"name":"A","timezone":""})", 422, "invalid_time_zone");
  check(R"({"name":"A","active":"yes"})", 422, "invalid_field");
  check("{not json", 400, "invalid_json");
  check("[]", 400, "invalid_body");
  CHECK(edge.get(kBase + "/branches", edge.acme_token).data().as_array().empty());

  std::string id = id_of(edge.post(kBase + "/branches", R"({"name":"A"})", edge.acme_token));
  auto tz = edge.patch(kBase + "/branches/" + id, R"({"timezone":"Nowhere/City"})", edge.acme_token);
  CHECK(tz.status == 422);
  CHECK(tz.error() == "invalid_time_zone");
}

TEST_CASE("restaurant: authentication answers in the restaurant error format") {
  TestEdge edge;
  auto none = edge.get(kBase + "/branches");
  CHECK(none.status == 401);
  CHECK(none.error() == "unauthorized");
  CHECK(none.header("WWW-Authenticate") == "Bearer");
  auto bad = edge.get(kBase + "/branches", "stk_not_a_real_token");
  CHECK(bad.status == 401);
  CHECK(bad.error() == "unauthorized");
  auto other = edge.get("/api/restaurant/companies/globex/branches", edge.acme_token);
  CHECK(other.status == 404);
  CHECK(other.error() == "company_not_found");
  std::string plain = edge.token_with("acme", {"storage.view"});
  auto no_perm = edge.get(kBase + "/branches", plain);
  CHECK(no_perm.status == 403);
  CHECK(no_perm.json ==
        json::value(json::object{{"error", "forbidden"},
                                 {"message", "access token lacks permission 'restaurant.view'"}}));
  auto no_write =
      edge.post(kBase + "/branches", R"({"name":"A"})", edge.token_with("acme", {"restaurant.view"}));
  CHECK(no_write.status == 403);
  CHECK(no_write.error() == "forbidden");
}

TEST_CASE("restaurant: a branch-scoped token sees and writes only its branch") {
  TestEdge edge;
  std::string a = id_of(edge.post(kBase + "/branches", R"({"name":"A"})", edge.acme_token));
  std::string b = id_of(edge.post(kBase + "/branches", R"({"name":"B"})", edge.acme_token));
  std::string scoped = edge.token_with("acme", {"restaurant.branch:" + a});
  auto list = edge.get(kBase + "/branches", scoped);
  REQUIRE(list.status == 200);
  REQUIRE(list.data().as_array().size() == 1);
  CHECK(list.data().as_array()[0].at("id").as_string() == a);
  CHECK(edge.patch(kBase + "/branches/" + a, R"({"order":3})", scoped).status == 200);
  auto denied = edge.patch(kBase + "/branches/" + b, R"({"order":3})", scoped);
  CHECK(denied.status == 403);
  CHECK(denied.error() == "forbidden_branch");
  CHECK(edge.get(kBase + "/branches/" + b, scoped).status == 404);
  // Creating a branch is a company-wide write: restaurant.manage.
  auto create = edge.post(kBase + "/branches", R"({"name":"C"})", scoped);
  CHECK(create.status == 403);
  CHECK(create.error() == "forbidden");
}

TEST_CASE("restaurant: another company's branch answers 404 branch_not_found") {
  TestEdge edge;
  std::string g =
      id_of(edge.post("/api/restaurant/companies/globex/branches", R"({"name":"G"})", edge.globex_token));
  auto get = edge.get(kBase + "/branches/" + g, edge.acme_token);
  CHECK(get.status == 404);
  CHECK(get.error() == "branch_not_found");
  auto patch = edge.patch(kBase + "/branches/" + g, R"({"name":"Mine"})", edge.acme_token);
  CHECK(patch.status == 404);
  CHECK(patch.error() == "branch_not_found");
  CHECK(edge.get("/api/restaurant/companies/globex/branches/" + g, edge.globex_token).data().at("name") ==
        "G");
}

TEST_CASE(
    "restaurant: the rate limit, unknown paths, wrong methods and big bodies answer in the restaurant "
    "format") {
  edge::Config config;
  config.rate_limit = {2, 1000};
  config.max_json_body = 256;
  TestEdge edge(config);
  auto path = edge.get(kBase + "/nothing-here", edge.acme_token);
  CHECK(path.status == 404);
  CHECK(path.json == json::value(json::object{{"error", "not_found"}, {"message", "not found"}}));
  auto method = edge.send("PUT", kBase + "/branches", "{}", {});
  CHECK(method.status == 405);
  CHECK(method.error() == "method_not_allowed");
  CHECK(method.header("Allow") == "GET, POST");
  auto big =
      edge.post(kBase + "/branches", R"({"name":")" + std::string(300, 'x') + R"("})", edge.acme_token);
  CHECK(big.status == 413);
  CHECK(big.error() == "payload_too_large");

  CHECK(edge.get(kBase + "/branches", edge.acme_token).status == 200);
  CHECK(edge.get(kBase + "/branches", edge.acme_token).status == 200);
  auto limited = edge.get(kBase + "/branches", edge.acme_token);
  CHECK(limited.status == 429);
  CHECK(limited.header("Retry-After") == "1");
  CHECK(limited.json == json::value(json::object{{"error", "rate_limited"},
                                                 {"message", "rate limit exceeded; retry after 1 s"}}));
  // The platform routes keep the envelope.
  CHECK(edge.get("/api/nothing-here").body == R"({"data":null,"error":"not found"})");
}

TEST_CASE("restaurant: GET /branches pages like the other lists (limit, skip, X-Total-Count)") {
  TestEdge edge;
  for (const char* name : {"D", "B", "C", "A"})
    REQUIRE(
        edge.post(kBase + "/branches", std::string(R"({"name":")") + name + "\"}", edge.acme_token).status ==
        201);
  auto page = edge.get(kBase + "/branches?limit=2&skip=1", edge.acme_token);
  REQUIRE(page.status == 200);
  CHECK(page.header("X-Total-Count") == "4");
  REQUIRE(page.data().as_array().size() == 2);
  CHECK(page.data().as_array()[0].at("name") == "B");
  CHECK(page.data().as_array()[1].at("name") == "C");
  auto filtered = edge.get(kBase + "/branches?activeOnly=true&limit=1", edge.acme_token);
  CHECK(filtered.header("X-Total-Count") == "4");
  CHECK(filtered.data().as_array().size() == 1);
  auto bad = edge.get(kBase + "/branches?limit=201", edge.acme_token);
  CHECK(bad.status == 422);
  CHECK(bad.error() == "invalid_field");
}
