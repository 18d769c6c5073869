#include "edge/accounts/accounts.h"

#include <algorithm>

#include "core/ascii.h"
#include "core/crypto.h"
#include "core/date.h"
#include "core/id.h"
#include "core/member_roles.h"
#include "core/token.h"
#include "core/validate.h"
#include "edge/platform/record_json.h"
#include "native/crypto/password.h"

namespace edge {
namespace json = core::json;
using core::make_error;

namespace {

// Key layout of the accounts table. Every index is written in the same transaction as its record.
std::string company_key(std::string_view id) {
  return "company/" + std::string(id);
}
std::string company_slug_key(std::string_view slug) {
  return "company-slug/" + std::string(slug);
}
std::string user_key(std::string_view id) {
  return "user/" + std::string(id);
}
std::string user_email_key(std::string_view email) {
  return "user-email/" + std::string(email);
}
std::string member_key(std::string_view company_id, std::string_view user_id) {
  return "member/" + std::string(company_id) + "/" + std::string(user_id);
}
std::string user_company_key(std::string_view user_id, std::string_view company_id) {
  return "user-company/" + std::string(user_id) + "/" + std::string(company_id);
}
std::string token_key(std::string_view company_id, std::string_view token_id) {
  return "token/" + std::string(company_id) + "/" + std::string(token_id);
}
std::string token_hash_key(std::string_view hash) {
  return "token-hash/" + std::string(hash);
}

using record::array_of;
using record::num;
using record::opt_num;
using record::str;
using record::strs;
using record::time_or_null;

// Stored forms: what the API shows plus hashes, with times as epoch milliseconds.
std::string encode(const Company& c) {
  return json::serialize(
      json::object{{"id", c.id}, {"slug", c.slug}, {"name", c.name}, {"createdAt", c.created_at}});
}
Company decode_company(const json::object& o) {
  return {str(o, "id"), str(o, "slug"), str(o, "name"), num(o, "createdAt")};
}
std::string encode(const User& u) {
  return json::serialize(json::object{{"id", u.id},
                                      {"email", u.email},
                                      {"name", u.name},
                                      {"picture", u.picture},
                                      {"passwordHash", u.password_hash},
                                      {"emailVerified", u.email_verified},
                                      {"createdAt", u.created_at}});
}
User decode_user(const json::object& o) {
  User u{str(o, "id"),           str(o, "email"), str(o, "name"),     str(o, "picture"),
         str(o, "passwordHash"), false,           num(o, "createdAt")};
  if (auto* v = o.if_contains("emailVerified"); v && v->is_bool()) u.email_verified = v->get_bool();
  return u;
}
std::string encode(const Membership& m) {
  return json::serialize(json::object{{"companyId", m.company_id},
                                      {"userId", m.user_id},
                                      {"role", core::role_name(m.role)},
                                      {"permissions", array_of(m.permissions)},
                                      {"createdAt", m.created_at}});
}
Membership decode_membership(const json::object& o) {
  return {str(o, "companyId"), str(o, "userId"),
          core::parse_role(str(o, "role")).value_or(core::Role::member), strs(o, "permissions"),
          num(o, "createdAt")};
}
std::string encode(const AccessToken& t) {
  json::object o{{"id", t.id},
                 {"companyId", t.company_id},
                 {"name", t.name},
                 {"tokenPrefix", t.token_prefix},
                 {"tokenHash", t.token_hash},
                 {"createdBy", t.created_by},
                 {"permissions", array_of(t.permissions)},
                 {"createdAt", t.created_at}};
  if (t.last_used_at) o["lastUsedAt"] = *t.last_used_at;
  if (t.revoked_at) o["revokedAt"] = *t.revoked_at;
  return json::serialize(o);
}
AccessToken decode_token(const json::object& o) {
  return {str(o, "id"),           str(o, "companyId"), str(o, "name"),
          str(o, "tokenPrefix"),  str(o, "tokenHash"), str(o, "createdBy"),
          strs(o, "permissions"), num(o, "createdAt"), opt_num(o, "lastUsedAt"),
          opt_num(o, "revokedAt")};
}

// Reads and decodes one record; `not_found` when absent.
template <class T, class Decode>
core::Result<T> load(const store::ReadTxn& tx, store::Table t, const std::string& key, Decode decode,
                     std::string_view what) {
  auto raw = tx.get(t, key);
  if (!raw) return make_error("not_found", std::string(what) + " not found");
  auto obj = core::parse_json_object(*raw);
  if (!obj) return make_error("storage_error", "stored " + std::string(what) + " is unreadable");
  return decode(*obj);
}

core::Status validate_permissions(const std::vector<std::string>& permissions) {
  for (auto& p : permissions) CORE_TRY(core::validate_permission(p));
  return {};
}

core::Status validate_name(std::string_view field, std::string_view name, std::size_t max) {
  if (name.empty() || name.size() > max)
    return make_error("invalid_field", "field '" + std::string(field) + "' must be 1 to " +
                                           std::to_string(max) + " characters");
  return {};
}

}  // namespace

std::string normalized_email(std::string_view email) {
  return core::to_ascii_lower(email);
}

json::object to_json(const Company& c) {
  return {
      {"id", c.id}, {"slug", c.slug}, {"name", c.name}, {"createdAt", core::format_timestamp(c.created_at)}};
}

json::object to_json(const User& u) {
  return {{"id", u.id},
          {"email", u.email},
          {"name", u.name},
          {"picture", u.picture.empty() ? json::value(nullptr) : json::value(u.picture)},
          {"createdAt", core::format_timestamp(u.created_at)}};
}

json::object to_json(const Membership& m, const User& u) {
  return {{"userId", m.user_id},
          {"email", u.email},
          {"name", u.name},
          {"role", core::role_name(m.role)},
          {"permissions", array_of(m.permissions)},
          {"createdAt", core::format_timestamp(m.created_at)}};
}

json::object to_json(const AccessToken& t) {
  return {{"id", t.id},
          {"name", t.name},
          {"tokenPrefix", t.token_prefix},
          {"permissions", array_of(t.permissions)},
          {"createdAt", core::format_timestamp(t.created_at)},
          {"lastUsedAt", time_or_null(t.last_used_at)},
          {"revokedAt", time_or_null(t.revoked_at)}};
}

Accounts::Accounts(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random)
    : kv_(kv), table_(table), clock_(clock), random_(random) {}

core::Result<Company> Accounts::create_company(std::string_view slug, std::string_view name) {
  CORE_TRY(core::validate_slug(slug));
  CORE_TRY(validate_name("name", name, 200));
  Company c{core::make_id("cmp_", random_), std::string(slug), std::string(name), clock_.now_ms()};
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    if (tx.get(table_, company_slug_key(slug)))
      return make_error("conflict", "a company with slug '" + std::string(slug) + "' already exists");
    tx.put(table_, company_key(c.id), encode(c));
    tx.put(table_, company_slug_key(slug), c.id);
    return {};
  }));
  return c;
}

core::Result<Company> Accounts::company_by_slug(std::string_view slug) {
  core::Result<Company> out = make_error("not_found", "company not found");
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    auto id = tx.get(table_, company_slug_key(slug));
    if (id) out = load<Company>(tx, table_, company_key(*id), decode_company, "company");
    return {};
  }));
  return out;
}

core::Result<Company> Accounts::company_by_id(std::string_view id) {
  core::Result<Company> out = make_error("not_found", "company not found");
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<Company>(tx, table_, company_key(id), decode_company, "company");
    return {};
  }));
  return out;
}

core::Result<std::vector<Company>> Accounts::list_companies() {
  std::vector<Company> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    tx.scan(table_, "company/", [&](std::string_view, std::string_view value) {
      if (auto o = core::parse_json_object(value)) out.push_back(decode_company(*o));
      return true;
    });
    return {};
  }));
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.slug < b.slug; });
  return out;
}

core::Result<User> Accounts::create_user(std::string_view email, std::string_view name,
                                         std::string_view password, std::string_view picture) {
  CORE_TRY(core::validate_email(email));
  CORE_TRY(validate_name("name", name, 200));
  if (password.size() < 8 || password.size() > 1024)
    return make_error("invalid_field", "field 'password' must be 8 to 1024 characters");
  if (!picture.empty()) CORE_TRY(core::validate_http_url(picture));
  // Hashing takes tens of milliseconds: done before the write transaction, never inside it.
  std::string hash = native::hash_password(password);
  if (hash.empty()) return make_error("storage_error", "password hashing failed");
  User u{core::make_id("usr_", random_),
         std::string(email),
         std::string(name),
         std::string(picture),
         hash,
         false,
         clock_.now_ms()};
  std::string email_key = user_email_key(normalized_email(email));
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    if (tx.get(table_, email_key)) return make_error("conflict", "a user with this email already exists");
    tx.put(table_, user_key(u.id), encode(u));
    tx.put(table_, email_key, u.id);
    return {};
  }));
  return u;
}

core::Result<User> Accounts::user_by_id(std::string_view id) {
  core::Result<User> out = make_error("not_found", "user not found");
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<User>(tx, table_, user_key(id), decode_user, "user");
    return {};
  }));
  return out;
}

core::Result<User> Accounts::user_by_email(std::string_view email) {
  core::Result<User> out = make_error("not_found", "user not found");
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    if (auto id = tx.get(table_, user_email_key(normalized_email(email))))
      out = load<User>(tx, table_, user_key(*id), decode_user, "user");
    return {};
  }));
  return out;
}

core::Result<std::vector<User>> Accounts::list_users() {
  std::vector<User> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    tx.scan(table_, "user/", [&](std::string_view, std::string_view value) {
      if (auto o = core::parse_json_object(value)) out.push_back(decode_user(*o));
      return true;
    });
    return {};
  }));
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.email < b.email; });
  return out;
}

core::Result<User> Accounts::authenticate(std::string_view email, std::string_view password) {
  auto user = user_by_email(email);
  if (!user) {
    if (user.error().code != "not_found") return user.error();
    native::verify_password(native::decoy_password_hash(), password);  // same work as a real check
    return make_error("invalid_credentials", "email or password is incorrect");
  }
  if (!native::verify_password(user->password_hash, password))
    return make_error("invalid_credentials", "email or password is incorrect");
  return user;
}

core::Status Accounts::check_grant(core::Role role, const std::vector<std::string>& permissions,
                                   const Principal* by) const {
  CORE_TRY(validate_permissions(permissions));
  if (!by) return {};
  CORE_TRY(core::check_grant_role(by->role, role));
  if (by->role != core::Role::member) return {};
  for (auto& p : permissions)
    if (std::find(by->permissions.begin(), by->permissions.end(), p) == by->permissions.end())
      return make_error("forbidden", "cannot grant permission '" + p + "' that the caller does not hold");
  return {};
}

core::Result<Membership> Accounts::add_member(const Company& company, std::string_view email, core::Role role,
                                              const std::vector<std::string>& permissions,
                                              const Principal* by) {
  CORE_TRY(check_grant(role, permissions, by));
  auto user = user_by_email(email);
  if (!user) {
    if (user.error().code == "not_found")
      return make_error("unprocessable", "no platform user has the email '" + std::string(email) + "'");
    return user.error();
  }
  Membership m{company.id, user->id, role, permissions, clock_.now_ms()};
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    if (tx.get(table_, member_key(company.id, user->id)))
      return make_error("conflict", "this user is already a member of the company");
    tx.put(table_, member_key(company.id, user->id), encode(m));
    tx.put(table_, user_company_key(user->id, company.id), std::string(core::role_name(role)));
    return {};
  }));
  return m;
}

namespace {

// Counts the owners of a company inside a transaction.
int count_owners(const store::ReadTxn& tx, store::Table t, std::string_view company_id) {
  int owners = 0;
  tx.scan(t, "member/" + std::string(company_id) + "/", [&](std::string_view, std::string_view value) {
    if (auto o = core::parse_json_object(value); o && decode_membership(*o).role == core::Role::owner)
      ++owners;
    return true;
  });
  return owners;
}

}  // namespace

core::Result<Membership> Accounts::update_member(const Company& company, std::string_view user_id,
                                                 std::optional<core::Role> role,
                                                 std::optional<std::vector<std::string>> permissions,
                                                 const Principal* by) {
  core::Result<Membership> out = make_error("not_found", "member not found");
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto current = load<Membership>(tx, table_, member_key(company.id, user_id), decode_membership, "member");
    if (!current) return current.error();
    Membership m = *current;
    if (role) m.role = *role;
    if (permissions) m.permissions = *permissions;
    if (by) CORE_TRY(core::check_change_member(by->role, current->role, m.role));
    CORE_TRY(check_grant(m.role, m.permissions, by));
    if (current->role == core::Role::owner && m.role != core::Role::owner &&
        count_owners(tx, table_, company.id) <= 1)
      return make_error("conflict", "a company keeps at least one owner");
    tx.put(table_, member_key(company.id, user_id), encode(m));
    tx.put(table_, user_company_key(user_id, company.id), std::string(core::role_name(m.role)));
    out = m;
    return {};
  }));
  return out;
}

core::Status Accounts::remove_member(const Company& company, std::string_view user_id, const Principal* by) {
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto current = load<Membership>(tx, table_, member_key(company.id, user_id), decode_membership, "member");
    if (!current) return current.error();
    if (by) CORE_TRY(core::check_remove_member(by->role, current->role));
    if (current->role == core::Role::owner && count_owners(tx, table_, company.id) <= 1)
      return make_error("conflict", "a company keeps at least one owner");
    tx.erase(table_, member_key(company.id, user_id));
    tx.erase(table_, user_company_key(user_id, company.id));
    return {};
  });
}

core::Result<Membership> Accounts::membership(std::string_view company_id, std::string_view user_id) {
  core::Result<Membership> out = make_error("not_found", "member not found");
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    out = load<Membership>(tx, table_, member_key(company_id, user_id), decode_membership, "member");
    return {};
  }));
  return out;
}

core::Result<std::vector<std::pair<Membership, User>>> Accounts::list_members(const Company& company) {
  std::vector<std::pair<Membership, User>> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    tx.scan(table_, "member/" + company.id + "/", [&](std::string_view, std::string_view value) {
      auto o = core::parse_json_object(value);
      if (!o) return true;
      Membership m = decode_membership(*o);
      if (auto u = load<User>(tx, table_, user_key(m.user_id), decode_user, "user")) out.emplace_back(m, *u);
      return true;
    });
    return {};
  }));
  return out;
}

core::Result<std::vector<std::pair<Company, Membership>>> Accounts::companies_of(std::string_view user_id) {
  std::vector<std::pair<Company, Membership>> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    std::string prefix = "user-company/" + std::string(user_id) + "/";
    tx.scan(table_, prefix, [&](std::string_view key, std::string_view) {
      std::string company_id(key.substr(prefix.size()));
      auto c = load<Company>(tx, table_, company_key(company_id), decode_company, "company");
      auto m = load<Membership>(tx, table_, member_key(company_id, user_id), decode_membership, "member");
      if (c && m) out.emplace_back(*c, *m);
      return true;
    });
    return {};
  }));
  return out;
}

core::Result<Accounts::CreatedToken> Accounts::create_token(const Company& company, std::string_view name,
                                                            const std::vector<std::string>& permissions,
                                                            const Principal* by) {
  CORE_TRY(validate_name("name", name, 200));
  CORE_TRY(check_grant(core::Role::member, permissions, by));
  CreatedToken created;
  created.plaintext = core::make_token(core::TokenKind::access_token, random_);
  AccessToken& t = created.token;
  t.id = core::make_id("tok_", random_);
  t.company_id = company.id;
  t.name = std::string(name);
  t.token_prefix = core::token_display_prefix(created.plaintext);
  t.token_hash = core::sha256_hex(created.plaintext);
  t.created_by = by ? by->id : "cli";
  t.permissions = permissions;
  t.created_at = clock_.now_ms();
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    if (!tx.get(table_, company_key(company.id))) return make_error("not_found", "company not found");
    tx.put(table_, token_key(company.id, t.id), encode(t));
    tx.put(table_, token_hash_key(t.token_hash), company.id + "/" + t.id);
    return {};
  }));
  return created;
}

core::Result<std::vector<AccessToken>> Accounts::list_tokens(const Company& company) {
  std::vector<AccessToken> out;
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    tx.scan(table_, "token/" + company.id + "/", [&](std::string_view, std::string_view value) {
      if (auto o = core::parse_json_object(value)) out.push_back(decode_token(*o));
      return true;
    });
    return {};
  }));
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.created_at < b.created_at; });
  return out;
}

core::Result<AccessToken> Accounts::revoke_token(const Company& company, std::string_view token_id) {
  core::Result<AccessToken> out = make_error("not_found", "access token not found");
  CORE_TRY(kv_.write([&](store::WriteTxn& tx) -> core::Status {
    auto t = load<AccessToken>(tx, table_, token_key(company.id, token_id), decode_token, "access token");
    if (!t) return t.error();
    if (!t->revoked_at) {
      t->revoked_at = clock_.now_ms();
      tx.put(table_, token_key(company.id, token_id), encode(*t));
    }
    out = *t;
    return {};
  }));
  return out;
}

core::Result<Accounts::Authenticated> Accounts::authenticate_token(std::string_view plaintext) {
  core::Result<Authenticated> out = make_error("unknown_token", "unknown access token");
  std::string hash = core::sha256_hex(plaintext);
  CORE_TRY(kv_.read([&](const store::ReadTxn& tx) -> core::Status {
    auto where = tx.get(table_, token_hash_key(hash));
    if (!where) return {};
    auto t = load<AccessToken>(tx, table_, "token/" + *where, decode_token, "access token");
    if (!t) return {};
    // The index led here by hash; comparing the stored hash again costs nothing and guards the index.
    if (!core::constant_time_equal(t->token_hash, hash)) return {};
    if (t->revoked_at) {
      out = make_error("revoked_token", "access token has been revoked");
      return {};
    }
    auto c = load<Company>(tx, table_, company_key(t->company_id), decode_company, "company");
    if (!c) return {};
    out = Authenticated{std::move(*t), std::move(*c)};
    return {};
  }));
  return out;
}

core::Status Accounts::record_token_use(const std::vector<std::pair<AccessToken, std::int64_t>>& uses) {
  if (uses.empty()) return {};
  return kv_.write([&](store::WriteTxn& tx) -> core::Status {
    for (auto& [token, at] : uses) {
      std::string key = token_key(token.company_id, token.id);
      auto t = load<AccessToken>(tx, table_, key, decode_token, "access token");
      if (!t || (t->last_used_at && *t->last_used_at >= at)) continue;
      t->last_used_at = at;
      tx.put(table_, key, encode(*t));
    }
    return {};
  });
}

}  // namespace edge
