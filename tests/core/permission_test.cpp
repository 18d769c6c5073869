#include "core/permission.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace core;

namespace {

struct Case {
  std::vector<std::string> granted;
  std::string_view required;
  std::string_view target;
  bool allowed;
};

std::string describe(const Case& c) {
  std::string out = "granted [";
  for (const std::string& g : c.granted) out += g + " ";
  return out + "] required " + std::string(c.required) + " on '" + std::string(c.target) + "'";
}

void check_member(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    CHECK_MESSAGE(allows(Role::member, c.granted, c.required, c.target) == c.allowed, describe(c));
  }
}

}  // namespace

TEST_CASE("roles parse and print exactly") {
  CHECK(parse_role("owner") == Role::owner);
  CHECK(parse_role("admin") == Role::admin);
  CHECK(parse_role("member") == Role::member);
  CHECK_FALSE(parse_role("Owner").has_value());
  CHECK_FALSE(parse_role("").has_value());
  CHECK_FALSE(parse_role("viewer").has_value());
  CHECK(role_name(Role::owner) == "owner");
  CHECK(role_name(Role::admin) == "admin");
  CHECK(role_name(Role::member) == "member");
}

TEST_CASE("owners and admins bypass every check, members do not") {
  const std::vector<std::string> none;
  for (Role role : {Role::owner, Role::admin}) {
    CHECK(allows(role, none, "domains.delete", "abc"));
    CHECK(allows(role, none, "api-keys.manage"));
    CHECK(allows(role, none, "restaurant.write", "branch-1"));
    CHECK(allows(role, none, "anything.at-all"));
  }
  CHECK_FALSE(allows(Role::member, none, "domains.view"));
  CHECK_FALSE(allows(Role::member, none, "inbox.view", "a@example.com"));
}

TEST_CASE("plain permissions: exact name and <resource>.manage") {
  check_member({
      {{"domains.view"}, "domains.view", "", true},
      {{"domains.view"}, "domains.view", "abc", true},  // a plain permission covers every target
      {{"domains.view"}, "domains.edit", "abc", false},
      {{"domains.view"}, "domains.create", "", false},
      {{"send.execute"}, "send.execute", "", true},
      {{"send.execute"}, "logs.view", "", false},
      {{"domains.manage"}, "domains.delete", "anything", true},
      {{"domains.manage"}, "domains.create", "", true},
      {{"domains.manage"}, "domains.view", "", true},
      {{"domains.manage"}, "domains.manage", "", true},
      {{"domains.manage"}, "mailboxes.manage", "", false},
      {{"members.manage"}, "api-keys.manage", "", false},
      {{"members.manage"}, "members.manage", "", true},
      {{"api-keys.manage"}, "members.manage", "", false},
      {{"status.manage"}, "status.view", "", true},
      {{"status.view"}, "status.manage", "", false},
      {{"restaurant.manage"}, "restaurant.view", "", true},
      {{"restaurant.manage"}, "restaurant.write", "branch-1", true},
      {{"restaurant.manage"}, "restaurant.write", "", true},
      {{"restaurant.view"}, "restaurant.write", "branch-1", false},
      {{"restaurant.view"}, "restaurant.view", "branch-1", true},
      {{"storage.view"}, "buckets.create", "", false},
      {{"buckets.create"}, "buckets.edit", "", false},
      {{"buckets.create", "buckets.edit"}, "buckets.edit", "", true},
      {{"media.upload"}, "media.delete", "", false},
      // The resource is the text before the first dot: domains.manage does not cover "domainsx.view".
      {{"domains.manage"}, "domainsx.view", "", false},
      {{"oauth-clients.manage"}, "auth-projects.manage", "", false},
      {{"auth-projects.manage"}, "auth-projects.manage", "", true},
  });
}

TEST_CASE("domain scopes grant actions on one domain only") {
  check_member({
      // domains.domain:<id>:<action>
      {{"domains.domain:abc:view"}, "domains.view", "abc", true},
      {{"domains.domain:abc:view"}, "domains.edit", "abc", false},
      {{"domains.domain:abc:view"}, "domains.view", "def", false},
      {{"domains.domain:abc:view"}, "domains.view", "", false},  // no target: not the domain list
      {{"domains.domain:abc:view"}, "domains.manage", "abc", false},
      {{"domains.domain:abc:edit"}, "domains.edit", "abc", true},
      {{"domains.domain:abc:delete"}, "domains.delete", "abc", true},
      {{"domains.domain:abc:delete"}, "domains.view", "abc", false},
      {{"domains.domain:abc:create"}, "domains.create", "abc", true},
      {{"domains.domain:abc:create"}, "domains.create", "", false},
      {{"domains.domain:abc:view", "domains.domain:abc:edit"}, "domains.edit", "abc", true},
      // domains.domain:<id> (legacy): every action on the domain
      {{"domains.domain:abc"}, "domains.view", "abc", true},
      {{"domains.domain:abc"}, "domains.edit", "abc", true},
      {{"domains.domain:abc"}, "domains.delete", "abc", true},
      {{"domains.domain:abc"}, "domains.manage", "abc", true},
      {{"domains.domain:abc"}, "domains.view", "def", false},
      {{"domains.domain:abc"}, "domains.view", "", false},
      {{"domains.domain:abc"}, "domains.create", "", false},
      {{"domains.domain:abc"}, "abc", "abc", false},
      // Ids compare exactly.
      {{"domains.domain:abc"}, "domains.view", "ABC", false},
      {{"domains.domain:abc"}, "domains.view", "abcd", false},
      // A domain scope grants nothing outside domains.
      {{"domains.domain:abc"}, "mailboxes.manage", "abc", false},
      {{"domains.domain:abc"}, "inbox.view", "abc", false},
      {{"domains.domain:abc:view"}, "templates.manage", "abc", false},
      // Malformed scopes grant nothing.
      {{"domains.domain:abc:manage"}, "domains.manage", "abc", false},
      {{"domains.domain:abc:manage"}, "domains.view", "abc", false},
      {{"domains.domain:abc:"}, "domains.view", "abc", false},
      {{"domains.domain:"}, "domains.view", "", false},
  });
}

TEST_CASE("mailbox scopes grant reading one mailbox only") {
  check_member({
      {{"inbox.mailbox:alice@example.com"}, "inbox.view", "alice@example.com", true},
      {{"inbox.mailbox:alice@example.com"}, "inbox.view", "alice@EXAMPLE.com", true},  // domain part folds
      {{"inbox.mailbox:alice@Example.COM"}, "inbox.view", "alice@example.com", true},
      {{"inbox.mailbox:alice@example.com"}, "inbox.view", "Alice@example.com", false},  // local part exact
      {{"inbox.mailbox:alice@example.com"}, "inbox.view", "bob@example.com", false},
      {{"inbox.mailbox:alice@example.com"}, "inbox.view", "alice@example.org", false},
      {{"inbox.mailbox:alice@example.com"}, "inbox.view", "alice", false},
      {{"inbox.mailbox:alice@example.com"}, "inbox.view", "", false},  // not the mailbox list
      {{"inbox.mailbox:alice@example.com"}, "mailboxes.manage", "alice@example.com", false},
      {{"inbox.mailbox:alice@example.com"}, "send.execute", "alice@example.com", false},
      {{"inbox.mailbox:alice@example.com"}, "inbox.manage", "alice@example.com", false},
      {{"inbox.mailbox:alice@example.com"}, "domains.view", "alice@example.com", false},
      {{"inbox.mailbox:not-an-email"}, "inbox.view", "not-an-email", false},
      {{"inbox.view"}, "inbox.view", "anyone@example.com", true},
      {{"inbox.view"}, "inbox.view", "", true},
  });
}

TEST_CASE("restaurant branch scopes: write one branch, read") {
  check_member({
      {{"restaurant.branch:b1"}, "restaurant.write", "b1", true},
      {{"restaurant.branch:b1"}, "restaurant.write", "b2", false},
      {{"restaurant.branch:b1"},
       "restaurant.write",
       "",
       false},                                                  // company-wide writes need restaurant.manage
      {{"restaurant.branch:b1"}, "restaurant.view", "", true},  // lists, filtered by the product
      {{"restaurant.branch:b1"}, "restaurant.view", "b1", true},
      {{"restaurant.branch:b1"}, "restaurant.view", "b2", false},
      {{"restaurant.branch:b1"}, "restaurant.manage", "b1", false},
      {{"restaurant.branch:b1"}, "status.view", "b1", false},
      {{"restaurant.branch:b1", "restaurant.branch:b2"}, "restaurant.write", "b2", true},
      {{"restaurant.branch:b1", "restaurant.view"}, "restaurant.view", "b2", true},
      {{"restaurant.branch:b1", "restaurant.view"}, "restaurant.write", "b2", false},
      {{"restaurant.view"}, "restaurant.view", "", true},
      {{"restaurant.view"}, "restaurant.write", "", false},
  });
}

TEST_CASE("unknown and malformed permissions grant nothing") {
  check_member({
      {{"foo.bar"}, "foo.bar", "", false},
      {{"foo.manage"}, "foo.view", "", false},
      {{"restaurant.write"}, "restaurant.write", "b1", false},  // a required name, not a grantable one
      {{"Domains.view"}, "domains.view", "", false},
      {{"domains.view "}, "domains.view", "", false},
      {{""}, "domains.view", "", false},
      {{"*"}, "domains.view", "", false},
      {{"domains.*"}, "domains.view", "", false},
      {{"domains.domain:abc"}, "domains.domain:abc", "", false},  // a scoped name is not a required name
      {{"domains.manage"}, "domains", "", false},
      {{"domains.manage"}, ".manage", "", false},
      {{"domains.view"}, "", "", false},
  });
}

TEST_CASE("validate_permission accepts known names and well-formed scopes") {
  for (std::string_view good : {"domains.view",
                                "domains.create",
                                "domains.edit",
                                "domains.delete",
                                "domains.manage",
                                "mailboxes.manage",
                                "templates.manage",
                                "inbox.view",
                                "audience.manage",
                                "send.execute",
                                "logs.view",
                                "webhooks.manage",
                                "suppressions.manage",
                                "api-keys.manage",
                                "smtp.manage",
                                "members.manage",
                                "storage.view",
                                "buckets.create",
                                "buckets.edit",
                                "buckets.delete",
                                "media.upload",
                                "media.delete",
                                "media.reorder",
                                "oauth-clients.manage",
                                "auth-projects.manage",
                                "restaurant.view",
                                "restaurant.manage",
                                "status.view",
                                "status.manage",
                                "domains.domain:abc",
                                "domains.domain:dom_01HX",
                                "domains.domain:abc:view",
                                "domains.domain:abc:edit",
                                "domains.domain:abc:delete",
                                "domains.domain:abc:create",
                                "inbox.mailbox:alice@example.com",
                                "inbox.mailbox:a.b+c@mail.example.org",
                                "restaurant.branch:b1",
                                "restaurant.branch:br_7f3a"}) {
    CHECK_MESSAGE(validate_permission(good).ok(), good);
  }
}

TEST_CASE("validate_permission refuses everything else") {
  for (std::string_view bad : {"",
                               "domains",
                               "domains.",
                               "domains.read",
                               "domains.view ",
                               " domains.view",
                               "DOMAINS.VIEW",
                               "foo.bar",
                               "restaurant.write",
                               "inbox.manage",
                               "domains.domain:",
                               "domains.domain:abc:",
                               "domains.domain::view",
                               "domains.domain:abc:manage",
                               "domains.domain:abc:view:x",
                               "domains.domain:a b",
                               "domains.domain:a\tb",
                               "domains.domain:abc:VIEW",
                               "inbox.mailbox:",
                               "inbox.mailbox:alice",
                               "inbox.mailbox:alice@localhost",
                               "inbox.mailbox:alice@example.com:view",
                               "restaurant.branch:",
                               "restaurant.branch:b1:b2",
                               "restaurant.branch: b1",
                               "restaurant.branch:b\n1",
                               "mailbox:alice@example.com",
                               "domain:abc"}) {
    auto s = validate_permission(bad);
    CHECK_MESSAGE(!s.ok(), bad);
    if (!s.ok()) CHECK(s.error().code == "invalid_permission");
  }
  CHECK(validate_permission("foo.bar").error().message == "unknown permission 'foo.bar'");
  CHECK(validate_permission("domains.domain:a\nb").error().message ==
        "unknown permission 'domains.domain:a?b'");
}
