#pragma once
// Companies, platform users, memberships and company access tokens: the account model every product
// stands on (document 2, "Authentication"). One class serves the HTTP API, the browser sign-in and the
// admin CLI, so each rule lives here once.
//
// Errors carry these codes (edge::status_for maps them to HTTP statuses):
//   missing_field, invalid_field, invalid_email, invalid_slug, invalid_permission, invalid_role -> 400
//   not_found -> 404, conflict -> 409, forbidden -> 403, storage_error -> 500

#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/json.h"
#include "core/permission.h"
#include "core/random.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {

struct Company {
  std::string id, slug, name;
  std::int64_t created_at = 0;
};

struct User {
  std::string id, email, name, picture, password_hash;
  bool email_verified = false;
  std::int64_t created_at = 0;
};

struct Membership {
  std::string company_id, user_id;
  core::Role role = core::Role::member;
  std::vector<std::string> permissions;
  std::int64_t created_at = 0;
};

struct AccessToken {
  std::string id, company_id, name, token_prefix, token_hash, created_by;
  std::vector<std::string> permissions;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_used_at, revoked_at;
};

// Who is acting: a signed-in user through a membership, or an access token. Tokens act as members with
// the token's permission list.
struct Principal {
  enum class Kind { user, token } kind = Kind::token;
  std::string id;  // user id or token id
  core::Role role = core::Role::member;
  std::vector<std::string> permissions;

  bool allows(std::string_view required, std::string_view target = {}) const {
    return core::allows(role, permissions, required, target);
  }
};

// An email as accounts compare it (ASCII lower case): the key of the email index and of the sign-in limit,
// so `Victim@` and `VICTIM@` are one account everywhere.
std::string normalized_email(std::string_view email);

// What the API shows of each record (never a hash).
core::json::object to_json(const Company& c);
core::json::object to_json(const User& u);
core::json::object to_json(const Membership& m, const User& u);
core::json::object to_json(const AccessToken& t);

class Accounts {
 public:
  Accounts(store::KvStore& kv, store::Table table, core::Clock& clock, core::RandomSource& random);

  // Creates a company; `conflict` when the slug is taken.
  core::Result<Company> create_company(std::string_view slug, std::string_view name);
  core::Result<Company> company_by_slug(std::string_view slug);
  core::Result<std::vector<Company>> list_companies();

  // Creates a platform user with an argon2id password hash; `conflict` when the email is taken (emails
  // compare case-insensitively). The password must be 8 to 1024 characters.
  core::Result<User> create_user(std::string_view email, std::string_view name, std::string_view password,
                                 std::string_view picture = {});
  core::Result<User> user_by_id(std::string_view id);
  core::Result<User> user_by_email(std::string_view email);
  core::Result<std::vector<User>> list_users();
  // The user whose email and password match; `invalid_credentials` otherwise, in the same time whether or
  // not the email exists.
  core::Result<User> authenticate(std::string_view email, std::string_view password);

  // Membership writes. `by` null: the admin CLI, unchecked. Otherwise the role rule of core/member_roles.h
  // (who may grant, change and remove which role) and, for members (and tokens), only permissions they hold
  // themselves. Refusals are `forbidden`.
  //
  // Adds an existing user to a company.
  core::Result<Membership> add_member(const Company& company, std::string_view email, core::Role role,
                                      const std::vector<std::string>& permissions, const Principal* by);
  core::Result<Membership> update_member(const Company& company, std::string_view user_id,
                                         std::optional<core::Role> role,
                                         std::optional<std::vector<std::string>> permissions,
                                         const Principal* by);
  // `conflict` when it would remove the company's last owner.
  core::Status remove_member(const Company& company, std::string_view user_id, const Principal* by);
  core::Result<std::vector<std::pair<Membership, User>>> list_members(const Company& company);
  core::Result<Membership> membership(std::string_view company_id, std::string_view user_id);
  core::Result<std::vector<std::pair<Company, Membership>>> companies_of(std::string_view user_id);

  // Creates an access token; the plaintext is returned once, in `plaintext`. Same granting rule as
  // add_member: a member can only hand out permissions it holds.
  struct CreatedToken {
    AccessToken token;
    std::string plaintext;
  };
  core::Result<CreatedToken> create_token(const Company& company, std::string_view name,
                                          const std::vector<std::string>& permissions, const Principal* by);
  core::Result<std::vector<AccessToken>> list_tokens(const Company& company);
  // Revokes (idempotent: revoking twice keeps the first time). `not_found` for another company's token.
  core::Result<AccessToken> revoke_token(const Company& company, std::string_view token_id);

  // The live token whose plaintext is `plaintext` and its company, read in one snapshot:
  // `unknown_token` or `revoked_token` otherwise. Called on every authenticated request.
  struct Authenticated {
    AccessToken token;
    Company company;
  };
  core::Result<Authenticated> authenticate_token(std::string_view plaintext);
  core::Result<Company> company_by_id(std::string_view id);
  // Writes lastUsedAt for many tokens in one transaction.
  core::Status record_token_use(const std::vector<std::pair<AccessToken, std::int64_t>>& uses);

 private:
  core::Status check_grant(core::Role role, const std::vector<std::string>& permissions,
                           const Principal* by) const;

  store::KvStore& kv_;
  store::Table table_;
  core::Clock& clock_;
  core::RandomSource& random_;
};

}  // namespace edge
