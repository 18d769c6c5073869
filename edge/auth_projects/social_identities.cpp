#include "edge/auth_projects/social_identities.h"

#include "core/ascii.h"
#include "core/crypto.h"
#include "core/id.h"
#include "core/token.h"
#include "core/validate.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_sweep.h"
#include "edge/auth_projects/login_tickets.h"
#include "edge/auth_projects/project_store.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

// Longest provider name copied onto a new user: the user API's own limit.
constexpr std::size_t kMaxUserNameBytes = 200;

std::string ticket_key(const Project& p, std::string_view ticket) {
  return project_record_key(p.id, "slk", core::sha256_hex(ticket));
}

bool link_ticket_live(const json::object& rec, std::int64_t now) {
  return ticket_live(rec, now, kLinkTicketMaxFailures);
}

// Writes the identity record and its index for `uid`.
void put_identity(store::WriteTxn& txn, store::Table t, std::string_view pid, std::string_view uid,
                  std::string_view provider_id, std::string_view sub, std::string_view email,
                  bool email_verified, std::int64_t now) {
  const std::string index_key = identity_index_key(pid, provider_id, sub);
  txn.put(t, index_key, uid);
  record::put_object(txn, t, identity_record_key(pid, uid, provider_id, core::sha256_hex(sub)),
                     json::object{{"providerId", provider_id},
                                  {"sub", sub},
                                  {"email", email},
                                  {"emailVerified", email_verified},
                                  {"linkedAt", now},
                                  {"lastSignInAt", now},
                                  {"indexKey", index_key}});
}

// The provider vouches for the user's own address: it counts as verified from now on.
void confirm_email_if_vouched(store::WriteTxn& txn, store::Table t, EndUser& user, std::string_view email,
                              bool email_verified) {
  if (user.email_verified || !email_verified || core::to_ascii_lower(email) != user.email) return;
  user.email_verified = true;
  put_user(txn, t, user);
}

}  // namespace

std::string identity_index_prefix(std::string_view pid, std::string_view provider_id) {
  return project_record_key(pid, "idn", std::string(provider_id) + "/");
}

std::string identity_index_key(std::string_view pid, std::string_view provider_id, std::string_view sub) {
  // Hashed: a sub is up to 255 bytes of anything, '/' included, and keys are paths.
  return identity_index_prefix(pid, provider_id) + core::sha256_hex(sub);
}

std::string identity_record_key(std::string_view pid, std::string_view uid, std::string_view provider_id,
                                std::string_view sub_hash) {
  std::string key = user_owned_prefix(pid, uid);
  key.append("social/").append(provider_id).append("/").append(sub_hash);
  return key;
}

core::Result<SocialOutcome> resolve_identity(App& app, const Project& project, const ProviderIdentity& who) {
  const store::Table t = app.auth_table;
  const std::int64_t now = app.clock.now_ms();
  const std::string index_key = identity_index_key(project.id, who.provider_id, who.sub);
  const std::string email = core::to_ascii_lower(who.email);
  // Made outside the transaction; only the branch that needs one uses it.
  const std::string new_uid = core::make_id("apu_", app.random);
  const std::string ticket = core::make_token(core::TokenKind::auth_ticket, app.random);
  SocialOutcome out;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    out = SocialOutcome{};
    if (!txn.get(t, "p/" + project.id)) return core::make_error("not_found", "auth project not found");
    if (auto uid = txn.get(t, index_key)) {
      if (auto user = get_user(txn, t, project.id, *uid)) {
        const std::string record_key =
            identity_record_key(project.id, *uid, who.provider_id, core::sha256_hex(who.sub));
        json::object identity = record::get_object(txn, t, record_key).value_or(json::object{});
        identity["providerId"] = who.provider_id;
        identity["sub"] = who.sub;
        identity["email"] = email;
        identity["emailVerified"] = who.email_verified;
        identity["lastSignInAt"] = now;
        identity["indexKey"] = index_key;
        if (!identity.contains("linkedAt")) identity["linkedAt"] = now;
        record::put_object(txn, t, record_key, identity);
        confirm_email_if_vouched(txn, t, *user, email, who.email_verified);
        out.kind = SocialOutcome::Kind::signed_in;
        out.user = std::move(*user);
        return {};
      }
      // An index left without its user (deleting a user removes both): the identity is free again.
      txn.erase(t, index_key);
    }
    if (email.empty()) {
      out.kind = SocialOutcome::Kind::no_email;
      return {};
    }
    if (!core::is_valid_email(email)) {
      out.kind = SocialOutcome::Kind::invalid_email;
      return {};
    }
    if (auto existing = get_user_by_email(txn, t, project.id, email)) {
      // Never linked on the strength of an email address alone: the account's owner confirms first.
      const std::string key = ticket_key(project, ticket);
      const std::int64_t expires_at = now + kLinkTicketLifetimeS * 1000;
      record::put_object(txn, t, key,
                         json::object{{"userId", existing->id},
                                      {"providerId", who.provider_id},
                                      {"sub", who.sub},
                                      {"email", email},
                                      {"emailVerified", who.email_verified},
                                      {"failures", 0},
                                      {"expiresAt", expires_at}});
      txn.put(t, auth_expiry_key(expires_at, key), "");
      out.kind = SocialOutcome::Kind::link_required;
      out.user = std::move(*existing);
      out.link_ticket = ticket;
      return {};
    }
    // A new user and its identity in one transaction: a concurrent callback for the same identity or the
    // same email sees both or neither.
    EndUser u;
    u.id = new_uid;
    u.project_id = project.id;
    u.email = email;
    u.name = who.name.size() <= kMaxUserNameBytes ? who.name : std::string();
    u.email_verified = who.email_verified;
    u.created_at = now;
    txn.put(t, project_record_key(project.id, "ue", email), u.id);
    put_user(txn, t, u);
    put_identity(txn, t, project.id, u.id, who.provider_id, who.sub, email, who.email_verified, now);
    out.kind = SocialOutcome::Kind::created;
    out.user = std::move(u);
    return {};
  }));
  return out;
}

core::Result<std::optional<LinkTicket>> peek_link_ticket(App& app, const Project& project,
                                                         std::string_view ticket) {
  std::optional<LinkTicket> out;
  if (!core::has_token_shape(core::TokenKind::auth_ticket, ticket)) return out;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, app.auth_table, ticket_key(project, ticket));
    if (rec && link_ticket_live(*rec, now))
      out = LinkTicket{record::str(*rec, "userId"), record::str(*rec, "providerId"), record::str(*rec, "sub"),
                       record::str(*rec, "email"), record::boolean(*rec, "emailVerified")};
    return {};
  }));
  return out;
}

core::Status fail_link_ticket(App& app, const Project& project, std::string_view ticket) {
  return count_ticket_failure(app, ticket_key(project, ticket));
}

core::Result<std::optional<EndUser>> link_with_ticket(App& app, const Project& project,
                                                      std::string_view ticket) {
  const store::Table t = app.auth_table;
  const std::int64_t now = app.clock.now_ms();
  std::optional<EndUser> out;
  if (!core::has_token_shape(core::TokenKind::auth_ticket, ticket)) return out;
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    out.reset();
    const std::string key = ticket_key(project, ticket);
    auto rec = record::get_object(txn, t, key);
    if (!rec || !link_ticket_live(*rec, now)) return {};
    (*rec)["usedAt"] = now;
    record::put_object(txn, t, key, *rec);
    const std::string uid = record::str(*rec, "userId"), provider_id = record::str(*rec, "providerId"),
                      sub = record::str(*rec, "sub"), email = record::str(*rec, "email");
    const bool verified = record::boolean(*rec, "emailVerified");
    auto user = get_user(txn, t, project.id, uid);
    if (!user) return core::make_error("not_found", "user not found");
    if (auto linked = txn.get(t, identity_index_key(project.id, provider_id, sub)); linked && *linked != uid)
      return core::make_error("conflict", "this provider account is already linked to another user");
    put_identity(txn, t, project.id, uid, provider_id, sub, email, verified, now);
    confirm_email_if_vouched(txn, t, *user, email, verified);
    out = std::move(*user);
    return {};
  }));
  return out;
}

}  // namespace edge::auth_projects
