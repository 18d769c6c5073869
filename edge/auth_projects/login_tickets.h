#pragma once
// A login that needs a second factor answers a ticket (`apt_`, stored hashed under its project) instead of
// tokens; the second step presents the ticket with the code. A ticket lives five minutes, names the user
// and how the first step signed in, allows five wrong codes, and is used once.

#include <cstdint>
#include <optional>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::auth_projects {

struct Project;
struct EndUser;

// What every single-use ticket record of the product shares (login tickets here, social link tickets in
// social_identities.h): `expiresAt`, a `failures` count and `usedAt` once used. Live: unused, unexpired
// and under `max_failures`.
bool ticket_live(const core::json::object& rec, std::int64_t now_ms, int max_failures);
// Counts one wrong answer on the ticket record under `key` (nothing when it is gone).
core::Status count_ticket_failure(App& app, const std::string& key);

inline constexpr std::int64_t kLoginTicketLifetimeS = 300;
inline constexpr int kLoginTicketMaxFailures = 5;

// Errors: `storage_error`.
core::Result<std::string> issue_login_ticket(App& app, const Project& project, const EndUser& user,
                                             std::string_view first_factor);

struct LoginTicket {
  std::string user_id, first_factor;
};
// The ticket's facts while it is live (unused, unexpired, fewer than the allowed failures); nullopt
// otherwise.
core::Result<std::optional<LoginTicket>> peek_login_ticket(App& app, const Project& project,
                                                           std::string_view ticket);
// Marks the ticket used (the second factor passed). Returns false when it was not live any more (a
// concurrent step used it first).
core::Result<bool> use_login_ticket(App& app, const Project& project, std::string_view ticket);
// The same inside a transaction (so the second factor and the ticket are used in one commit).
bool use_login_ticket_in(store::WriteTxn& txn, store::Table t, const Project& project,
                         std::string_view ticket, std::int64_t now_ms);
// Counts a wrong code; the ticket dies at kLoginTicketMaxFailures.
core::Status fail_login_ticket(App& app, const Project& project, std::string_view ticket);

}  // namespace edge::auth_projects
