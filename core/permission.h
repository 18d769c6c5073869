#pragma once
// The permission grammar of document 2 and the restaurant's branch scoping (spec/DECISIONS.md).
//
//   <resource>.<action>                  a plain permission, e.g. `domains.view`, `send.execute`
//   <resource>.manage                    every action on <resource>
//   domains.domain:<id>                  every action on one domain (legacy form)
//   domains.domain:<id>:<action>         one action (view, edit, delete, create) on one domain
//   inbox.mailbox:<email>                read (inbox.view) only that mailbox
//   restaurant.branch:<branchId>         write to that branch only
// Owners and admins bypass every check; members are checked per permission.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"

namespace core {

enum class Role { owner, admin, member };

std::optional<Role> parse_role(std::string_view text);
std::string_view role_name(Role role);

// Ok when `permission` is a known name or a well-formed scoped form above; otherwise `invalid_permission`
// with a message naming it.
Status validate_permission(std::string_view permission);

// Whether a holder of `role` and `granted` may perform `required` (a plain permission name such as
// `domains.edit` or `inbox.view`) on `target` (a domain id, a mailbox address, a branch id; empty when the
// action concerns no single resource).
bool allows(Role role, std::span<const std::string> granted, std::string_view required,
            std::string_view target = {});

}  // namespace core
