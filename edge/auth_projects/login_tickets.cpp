#include "edge/auth_projects/login_tickets.h"

#include "core/crypto.h"
#include "core/token.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_sweep.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/project_store.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

std::string ticket_key(const Project& p, std::string_view ticket) {
  return project_record_key(p.id, "tk", core::sha256_hex(ticket));
}

bool is_live(const json::object& rec, std::int64_t now) {
  return ticket_live(rec, now, kLoginTicketMaxFailures);
}

}  // namespace

bool ticket_live(const json::object& rec, std::int64_t now_ms, int max_failures) {
  return !rec.contains("usedAt") && now_ms < record::num(rec, "expiresAt") &&
         record::num(rec, "failures") < max_failures;
}

core::Status count_ticket_failure(App& app, const std::string& key) {
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, app.auth_table, key);
    if (!rec) return {};
    (*rec)["failures"] = record::num(*rec, "failures") + 1;
    record::put_object(txn, app.auth_table, key, *rec);
    return {};
  });
}

core::Result<std::string> issue_login_ticket(App& app, const Project& project, const EndUser& user,
                                             std::string_view first_factor) {
  std::string ticket = core::make_token(core::TokenKind::auth_ticket, app.random);
  const std::int64_t expires_at = app.clock.now_ms() + kLoginTicketLifetimeS * 1000;
  const std::string key = ticket_key(project, ticket);
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    record::put_object(
        txn, app.auth_table, key,
        json::object{
            {"userId", user.id}, {"firstFactor", first_factor}, {"failures", 0}, {"expiresAt", expires_at}});
    txn.put(app.auth_table, auth_expiry_key(expires_at, key), "");
    return {};
  }));
  return ticket;
}

core::Result<std::optional<LoginTicket>> peek_login_ticket(App& app, const Project& project,
                                                           std::string_view ticket) {
  std::optional<LoginTicket> out;
  if (!core::has_token_shape(core::TokenKind::auth_ticket, ticket)) return out;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, app.auth_table, ticket_key(project, ticket));
    if (rec && is_live(*rec, now))
      out = LoginTicket{record::str(*rec, "userId"), record::str(*rec, "firstFactor")};
    return {};
  }));
  return out;
}

bool use_login_ticket_in(store::WriteTxn& txn, store::Table t, const Project& project,
                         std::string_view ticket, std::int64_t now_ms) {
  const std::string key = ticket_key(project, ticket);
  auto rec = record::get_object(txn, t, key);
  if (!rec || !is_live(*rec, now_ms)) return false;
  (*rec)["usedAt"] = now_ms;
  record::put_object(txn, t, key, *rec);
  return true;
}

core::Result<bool> use_login_ticket(App& app, const Project& project, std::string_view ticket) {
  bool used = false;
  const std::int64_t now = app.clock.now_ms();
  CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    used = use_login_ticket_in(txn, app.auth_table, project, ticket, now);
    return {};
  }));
  return used;
}

core::Status fail_login_ticket(App& app, const Project& project, std::string_view ticket) {
  return count_ticket_failure(app, ticket_key(project, ticket));
}

}  // namespace edge::auth_projects
