#include "core/member_roles.h"

namespace core {
namespace {

// Higher ranks act on and grant their own rank and every lower one.
int rank(Role role) {
  switch (role) {
    case Role::owner:
      return 2;
    case Role::admin:
      return 1;
    case Role::member:
      return 0;
  }
  return 0;
}

bool acts_on(Role actor, Role target) {
  return rank(actor) >= rank(target);
}

// "only an owner" / "only owners and admins": who may act on or grant `role`.
std::string who_may(Role role) {
  return role == Role::owner ? "only an owner" : "only owners and admins";
}

}  // namespace

Status check_grant_role(Role actor, Role granted) {
  if (acts_on(actor, granted)) return {};
  return make_error("forbidden",
                    who_may(granted) + " can grant the " + std::string(role_name(granted)) + " role");
}

Status check_change_member(Role actor, Role current, Role wanted) {
  if (!acts_on(actor, current))
    return make_error("forbidden", who_may(current) + " can change an " + std::string(role_name(current)));
  return check_grant_role(actor, wanted);
}

Status check_remove_member(Role actor, Role current) {
  if (acts_on(actor, current)) return {};
  return make_error("forbidden", who_may(current) + " can remove an " + std::string(role_name(current)));
}

}  // namespace core
