#pragma once
// What one company role may do to another (document 2's owner, admin and member). One rule for every
// membership write, adding, changing and removing a member, whoever acts: a signed-in person through their
// membership, or an access token, which always acts as a member.
//
//   owner   acts on owners, admins and members; grants every role
//   admin   acts on admins and members;          grants admin and member
//   member  acts on members;                     grants member
//
// "Acts on" means changes the role or the permissions of, or removes. A role change needs both: acting on
// the current role and granting the new one. Without the first half a member could demote an admin and then
// remove them, although removing an admin outright is refused. Keeping one owner and granting only held
// permissions are separate checks (edge/accounts/accounts.h).

#include "core/permission.h"
#include "core/result.h"

namespace core {

// Ok when `actor` may give a new or existing membership the role `granted`; `forbidden` otherwise.
Status check_grant_role(Role actor, Role granted);

// Ok when `actor` may change a membership of role `current` to role `wanted` (the same role for a change of
// permissions only); `forbidden` otherwise.
Status check_change_member(Role actor, Role current, Role wanted);

// Ok when `actor` may remove a membership of role `current`; `forbidden` otherwise.
Status check_remove_member(Role actor, Role current);

}  // namespace core
