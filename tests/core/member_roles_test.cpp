#include "core/member_roles.h"

#include <doctest/doctest.h>

#include <string>

using namespace core;

namespace {

constexpr Role kRoles[] = {Role::owner, Role::admin, Role::member};

// "" when allowed, else the error message.
std::string outcome(const Status& s) {
  return s.ok() ? std::string() : s.error().code + ": " + s.error().message;
}

}  // namespace

TEST_CASE("member roles: who may grant which role") {
  struct Case {
    Role actor, granted;
    std::string_view expected;
  };
  const Case cases[] = {
      {Role::owner, Role::owner, ""},
      {Role::owner, Role::admin, ""},
      {Role::owner, Role::member, ""},
      {Role::admin, Role::owner, "forbidden: only an owner can grant the owner role"},
      {Role::admin, Role::admin, ""},
      {Role::admin, Role::member, ""},
      {Role::member, Role::owner, "forbidden: only an owner can grant the owner role"},
      {Role::member, Role::admin, "forbidden: only owners and admins can grant the admin role"},
      {Role::member, Role::member, ""},
  };
  for (const Case& c : cases)
    CHECK_MESSAGE(outcome(check_grant_role(c.actor, c.granted)) == c.expected, role_name(c.actor), " grants ",
                  role_name(c.granted));
}

TEST_CASE("member roles: removal, every actor on every role") {
  struct Case {
    Role actor, current;
    std::string_view expected;
  };
  const Case cases[] = {
      {Role::owner, Role::owner, ""},
      {Role::owner, Role::admin, ""},
      {Role::owner, Role::member, ""},
      {Role::admin, Role::owner, "forbidden: only an owner can remove an owner"},
      {Role::admin, Role::admin, ""},
      {Role::admin, Role::member, ""},
      {Role::member, Role::owner, "forbidden: only an owner can remove an owner"},
      {Role::member, Role::admin, "forbidden: only owners and admins can remove an admin"},
      {Role::member, Role::member, ""},
  };
  for (const Case& c : cases)
    CHECK_MESSAGE(outcome(check_remove_member(c.actor, c.current)) == c.expected, role_name(c.actor),
                  " removes ", role_name(c.current));
}

TEST_CASE("member roles: role change, every actor on every role to every role") {
  // The expected outcome: refused for acting on a role above the actor first, then for granting one.
  auto expected = [](Role actor, Role current, Role wanted) -> std::string {
    if (actor == Role::member && current == Role::owner)
      return "forbidden: only an owner can change an owner";
    if (actor == Role::admin && current == Role::owner) return "forbidden: only an owner can change an owner";
    if (actor == Role::member && current == Role::admin)
      return "forbidden: only owners and admins can change an admin";
    if (actor != Role::owner && wanted == Role::owner)
      return "forbidden: only an owner can grant the owner role";
    if (actor == Role::member && wanted == Role::admin)
      return "forbidden: only owners and admins can grant the admin role";
    return "";
  };
  int allowed = 0;
  for (Role actor : kRoles)
    for (Role current : kRoles)
      for (Role wanted : kRoles) {
        std::string got = outcome(check_change_member(actor, current, wanted));
        CHECK_MESSAGE(got == expected(actor, current, wanted), role_name(actor), " changes ",
                      role_name(current), " to ", role_name(wanted));
        if (got.empty()) ++allowed;
      }
  // owner: all 9; admin: admin/member to admin/member (4); member: member to member (1).
  CHECK(allowed == 14);
  // The reported hole: a member (or a token) demoting an admin.
  CHECK(outcome(check_change_member(Role::member, Role::admin, Role::member)) ==
        "forbidden: only owners and admins can change an admin");
}
