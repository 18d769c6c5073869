// Members under /api/companies/{slug}/members (permission members.manage).

#include <doctest/doctest.h>

#include <map>

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

namespace {

const core::Role kRoles[] = {core::Role::owner, core::Role::admin, core::Role::member};

std::string role_text(core::Role r) {
  return std::string(core::role_name(r));
}

// Adds `email` to acme with `role`, unchecked (as the admin CLI does); returns the user id.
std::string add_to_acme(TestEdge& edge, const std::string& email, core::Role role) {
  auto& accounts = *edge.server->app().accounts;
  auto m = accounts.add_member(*accounts.company_by_slug("acme"), email, role, {}, nullptr);
  REQUIRE(m.ok());
  return m->user_id;
}

}  // namespace

TEST_CASE("a members.manage token (a member) can change and remove only members, over HTTP") {
  TestEdge edge;
  std::string token = edge.token_with("acme", {"members.manage"});
  std::map<core::Role, std::string> target;
  for (core::Role r : kRoles) {
    make_user(edge, role_text(r) + "-target@acme.test");
    target[r] = add_to_acme(edge, role_text(r) + "-target@acme.test", r);
  }
  auto role_of = [&](core::Role r) {
    return std::string(
        edge.server->app()
                    .accounts->membership(edge.server->app().accounts->company_by_slug("acme")->id, target[r])
                    ->role == r
            ? "same"
            : "changed");
  };
  // Every role change of an owner or an admin, and every grant above member, is refused and changes nothing.
  for (core::Role current : kRoles)
    for (core::Role wanted : kRoles) {
      if (current == core::Role::member && wanted == core::Role::member) continue;  // allowed, below
      auto r = edge.patch("/api/companies/acme/members/" + target[current],
                          R"({"role":")" + role_text(wanted) + R"("})", token);
      std::string expected = current == core::Role::owner   ? "only an owner can change an owner"
                             : current == core::Role::admin ? "only owners and admins can change an admin"
                             : wanted == core::Role::owner
                                 ? "only an owner can grant the owner role"
                                 : "only owners and admins can grant the admin role";
      CHECK_MESSAGE(r.status == 403, role_text(current), " -> ", role_text(wanted));
      CHECK_MESSAGE(r.error() == expected, role_text(current), " -> ", role_text(wanted));
      CHECK(role_of(current) == "same");
    }
  // Permissions of an admin are the admin's business too.
  CHECK(edge.patch("/api/companies/acme/members/" + target[core::Role::admin], R"({"permissions":[]})", token)
            .error() == "only owners and admins can change an admin");
  auto owner_removal = edge.del("/api/companies/acme/members/" + target[core::Role::owner], token);
  CHECK(owner_removal.status == 403);
  CHECK(owner_removal.error() == "only an owner can remove an owner");
  auto admin_removal = edge.del("/api/companies/acme/members/" + target[core::Role::admin], token);
  CHECK(admin_removal.status == 403);
  CHECK(admin_removal.error() == "only owners and admins can remove an admin");
  CHECK(role_of(core::Role::owner) == "same");
  CHECK(role_of(core::Role::admin) == "same");

  auto member_change = edge.patch("/api/companies/acme/members/" + target[core::Role::member],
                                  R"({"role":"member","permissions":["members.manage"]})", token);
  CHECK(member_change.status == 200);
  CHECK(member_change.data().at("permissions") == core::json::array{"members.manage"});
  CHECK(edge.del("/api/companies/acme/members/" + target[core::Role::member], token).status == 200);
}

TEST_CASE("signed-in owners, admins and members: every role change and removal of every role") {
  // A person acts through their membership's role (a session's Principal); no HTTP route takes a session
  // for membership writes yet, so this drives the account model the routes share.
  TestEdge edge;
  auto& accounts = *edge.server->app().accounts;
  auto company = *accounts.company_by_slug("acme");
  make_user(edge, "target@acme.test");
  auto may_act = [](core::Role actor, core::Role target) {
    return actor == core::Role::owner || (actor == core::Role::admin && target != core::Role::owner) ||
           target == core::Role::member;
  };
  for (core::Role actor : kRoles) {
    edge::Principal by{edge::Principal::Kind::user, "usr_actor", actor, {"members.manage"}};
    for (core::Role current : kRoles) {
      std::string what = role_text(actor) + " on " + role_text(current);
      for (core::Role wanted : kRoles) {
        std::string id = add_to_acme(edge, "target@acme.test", current);
        auto changed = accounts.update_member(company, id, wanted, std::nullopt, &by);
        bool allowed = may_act(actor, current) && may_act(actor, wanted);
        CHECK_MESSAGE(changed.ok() == allowed, what, " -> ", role_text(wanted));
        if (!allowed) CHECK(changed.error().code == "forbidden");
        CHECK(accounts.membership(company.id, id)->role == (allowed ? wanted : current));
        REQUIRE(accounts.remove_member(company, id, nullptr).ok());
      }
      std::string id = add_to_acme(edge, "target@acme.test", current);
      auto removed = accounts.remove_member(company, id, &by);
      CHECK_MESSAGE(removed.ok() == may_act(actor, current), what, " removal");
      CHECK(accounts.membership(company.id, id).ok() == !may_act(actor, current));
      if (!removed.ok()) REQUIRE(accounts.remove_member(company, id, nullptr).ok());
    }
  }
}
