// Members under /api/companies/{slug}/members (permission members.manage).

#include <doctest/doctest.h>

#include "test_edge.h"

using testing::TestEdge;

namespace {
void make_user(TestEdge& edge, const std::string& email) {
  REQUIRE(edge.server->app().accounts->create_user(email, "Someone", "long enough password").ok());
}
}  // namespace

TEST_CASE("adding, listing, changing and removing a member") {
  TestEdge edge;
  make_user(edge, "ayse@acme.test");
  auto added = edge.post("/api/companies/acme/members",
                         R"({"email":"ayse@acme.test","role":"member","permissions":["storage.view"]})",
                         edge.acme_token);
  REQUIRE(added.status == 201);
  std::string user_id(added.data().at("userId").as_string());
  CHECK(added.data().at("role").as_string() == "member");
  CHECK(added.data().at("permissions") == core::json::array{"storage.view"});

  auto list = edge.get("/api/companies/acme/members", edge.acme_token);
  CHECK(list.data().as_array().size() == 2);
  CHECK(list.body.find("passwordHash") == std::string::npos);

  auto changed = edge.patch("/api/companies/acme/members/" + user_id, R"({"permissions":["members.manage"]})",
                            edge.acme_token);
  CHECK(changed.status == 200);
  CHECK(changed.data().at("permissions") == core::json::array{"members.manage"});
  CHECK(edge.patch("/api/companies/acme/members/" + user_id, "{}", edge.acme_token).error() ==
        "give at least one of 'role' and 'permissions'");

  auto removed = edge.del("/api/companies/acme/members/" + user_id, edge.acme_token);
  CHECK(removed.status == 200);
  CHECK(edge.get("/api/companies/acme/members", edge.acme_token).data().as_array().size() == 1);
  CHECK(edge.del("/api/companies/acme/members/" + user_id, edge.acme_token).status == 404);
}

TEST_CASE("member errors: unknown email 422, duplicate 409, bad role 400, last owner 409") {
  TestEdge edge;
  auto unknown = edge.post("/api/companies/acme/members", R"({"email":"ghost@acme.test"})", edge.acme_token);
  CHECK(unknown.status == 422);
  CHECK(unknown.error() == "no platform user has the email 'ghost@acme.test'");
  auto dup = edge.post("/api/companies/acme/members", R"({"email":"owner@acme.test"})", edge.acme_token);
  CHECK(dup.status == 409);
  CHECK(dup.error() == "this user is already a member of the company");
  auto role = edge.post("/api/companies/acme/members", R"({"email":"owner@acme.test","role":"boss"})",
                        edge.acme_token);
  CHECK(role.status == 400);
  CHECK(role.error() == "field 'role' must be owner, admin or member");
  // Tokens act as members: they can neither demote nor remove the owner.
  auto demote = edge.patch("/api/companies/acme/members/" + edge.acme_owner_id, R"({"role":"member"})",
                           edge.acme_token);
  CHECK(demote.status == 403);
  CHECK(demote.error() == "only an owner can change an owner");
  auto last = edge.server->app().accounts->remove_member(
      *edge.server->app().accounts->company_by_slug("acme"), edge.acme_owner_id, nullptr);
  CHECK_FALSE(last.ok());
  CHECK(last.error().code == "conflict");
  CHECK(last.error().message == "a company keeps at least one owner");
}

TEST_CASE("a token cannot grant the admin or owner role") {
  TestEdge edge;
  make_user(edge, "mehmet@acme.test");
  auto admin = edge.post("/api/companies/acme/members", R"({"email":"mehmet@acme.test","role":"admin"})",
                         edge.acme_token);
  CHECK(admin.status == 403);
  CHECK(admin.error() == "only owners and admins can grant the admin role");
  auto owner = edge.post("/api/companies/acme/members", R"({"email":"mehmet@acme.test","role":"owner"})",
                         edge.acme_token);
  CHECK(owner.status == 403);
  CHECK(owner.error() == "only an owner can grant the owner role");
}
