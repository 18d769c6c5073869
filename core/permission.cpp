#include "core/permission.h"

#include <optional>

#include "core/ascii.h"
#include "core/validate.h"

// Decisions behind `allows` (core/permission.h states the grammar):
//  - Only well-formed permissions (validate_permission) grant anything: an unknown or malformed string in a
//    stored list is inert, so a typo never widens access and a later addition to the known names cannot
//    revive an old typo.
//  - A plain permission grants its own name and, when it is `<resource>.manage`, every `<resource>.<action>`
//    (the resource is the text before the first '.'); it grants regardless of `target`.
//  - A scoped permission grants only with a non-empty `target` equal to its id, never the plain action on
//    the list (`domains.domain:abc` does not grant listing domains). The one exception is restaurant reads:
//    `restaurant.branch:<id>` grants `restaurant.view` without a target (the branch list, reports "for all
//    branches the caller can see") so the product can filter to the caller's branches, and with a target
//    only for its own branch.
//  - `domains.domain:<id>` grants every `domains.*` action on that domain, `domains.manage` included;
//    `domains.domain:<id>:<action>` exactly `domains.<action>` on it.
//  - `inbox.mailbox:<email>` grants only `inbox.view` on that address. Addresses compare with the domain part
//    case-insensitive and the local part exact (RFC 5321 §2.4: only the receiving host may fold the local
//    part), so a differently cased grant can deny but never reach a different mailbox. The platform stores
//    addresses lower-cased, so this only matters for hand-written grants.
//  - `restaurant.branch:<id>` grants `restaurant.write` on branch <id> (spec/DECISIONS.md: "write to that
//    branch only"); company-wide restaurant writes (no target) need `restaurant.manage`.
//  - A `required` name that is not plain (contains ':' or has no '.') is never granted to a member.
//  - Role names parse exactly, lower case only, like every other enumerated value on the wire.

namespace core {
namespace {

// Document 2's list plus the dashboard-only, restaurant, status and env vault permissions.
constexpr std::string_view kKnownPermissions[] = {
    "domains.view",         "domains.create",   "domains.edit",      "domains.delete",
    "domains.manage",       "mailboxes.manage", "templates.manage",  "inbox.view",
    "audience.manage",      "send.execute",     "logs.view",         "webhooks.manage",
    "suppressions.manage",  "api-keys.manage",  "smtp.manage",       "members.manage",
    "storage.view",         "buckets.create",   "buckets.edit",      "buckets.delete",
    "media.upload",         "media.delete",     "media.reorder",     "oauth-clients.manage",
    "auth-projects.manage", "restaurant.view",  "restaurant.manage", "status.view",
    "status.manage",        "env-vault.view",   "env-vault.manage",
};

constexpr std::string_view kDomainScope = "domains.domain:";
constexpr std::string_view kMailboxScope = "inbox.mailbox:";
constexpr std::string_view kBranchScope = "restaurant.branch:";

bool is_known(std::string_view permission) {
  for (std::string_view known : kKnownPermissions)
    if (known == permission) return true;
  return false;
}

bool is_domain_action(std::string_view action) {
  return action == "view" || action == "edit" || action == "delete" || action == "create";
}

// Scope ids are opaque: anything but empty, ':' (the separator), spaces and control characters.
bool valid_scope_id(std::string_view id) {
  if (id.empty()) return false;
  for (char c : id)
    if (c == ':' || static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  return true;
}

struct Scope {
  enum class Kind { domain, domain_action, mailbox, branch } kind;
  std::string_view id;
  std::string_view action;  // domain_action only
};

// The scoped form of `permission`, or nullopt when it is not a well-formed scoped permission.
std::optional<Scope> parse_scope(std::string_view permission) {
  if (permission.starts_with(kDomainScope)) {
    const std::string_view rest = permission.substr(kDomainScope.size());
    const std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos) {
      if (!valid_scope_id(rest)) return std::nullopt;
      return Scope{Scope::Kind::domain, rest, {}};
    }
    const std::string_view id = rest.substr(0, colon);
    const std::string_view action = rest.substr(colon + 1);
    if (!valid_scope_id(id) || !is_domain_action(action)) return std::nullopt;
    return Scope{Scope::Kind::domain_action, id, action};
  }
  if (permission.starts_with(kMailboxScope)) {
    const std::string_view email = permission.substr(kMailboxScope.size());
    if (!is_valid_email(email)) return std::nullopt;
    return Scope{Scope::Kind::mailbox, email, {}};
  }
  if (permission.starts_with(kBranchScope)) {
    const std::string_view id = permission.substr(kBranchScope.size());
    if (!valid_scope_id(id)) return std::nullopt;
    return Scope{Scope::Kind::branch, id, {}};
  }
  return std::nullopt;
}

bool same_mailbox(std::string_view granted, std::string_view target) {
  const std::size_t a = granted.rfind('@');
  const std::size_t b = target.rfind('@');
  if (a == std::string_view::npos || b == std::string_view::npos) return false;
  return granted.substr(0, a) == target.substr(0, b) &&
         ascii_iequals(granted.substr(a + 1), target.substr(b + 1));
}

bool scope_grants(const Scope& scope, std::string_view required, std::string_view target) {
  switch (scope.kind) {
    case Scope::Kind::domain:
      return !target.empty() && target == scope.id && required.starts_with("domains.");
    case Scope::Kind::domain_action:
      return !target.empty() && target == scope.id && required.starts_with("domains.") &&
             required.substr(std::string_view("domains.").size()) == scope.action;
    case Scope::Kind::mailbox:
      return !target.empty() && required == "inbox.view" && same_mailbox(scope.id, target);
    case Scope::Kind::branch:
      if (required == "restaurant.view") return target.empty() || target == scope.id;
      return required == "restaurant.write" && !target.empty() && target == scope.id;
  }
  return false;
}

bool plain_grants(std::string_view granted, std::string_view required) {
  if (granted == required) return true;
  const std::size_t dot = required.find('.');
  const std::string_view resource = required.substr(0, dot);
  return granted.size() == resource.size() + std::string_view(".manage").size() &&
         granted.starts_with(resource) && granted.substr(resource.size()) == ".manage";
}

}  // namespace

std::optional<Role> parse_role(std::string_view text) {
  if (text == "owner") return Role::owner;
  if (text == "admin") return Role::admin;
  if (text == "member") return Role::member;
  return std::nullopt;
}

std::string_view role_name(Role role) {
  switch (role) {
    case Role::owner:
      return "owner";
    case Role::admin:
      return "admin";
    case Role::member:
      return "member";
  }
  return "member";
}

Status validate_permission(std::string_view permission) {
  if (is_known(permission) || parse_scope(permission)) return {};
  return make_error("invalid_permission", "unknown permission " + quote_for_message(permission));
}

bool allows(Role role, std::span<const std::string> granted, std::string_view required,
            std::string_view target) {
  if (role == Role::owner || role == Role::admin) return true;
  const std::size_t dot = required.find('.');
  if (dot == std::string_view::npos || dot == 0 || required.find(':') != std::string_view::npos) return false;
  for (const std::string& g : granted) {
    if (is_known(g)) {
      if (plain_grants(g, required)) return true;
    } else if (auto scope = parse_scope(g)) {
      if (scope_grants(*scope, required, target)) return true;
    }
  }
  return false;
}

}  // namespace core
