#pragma once
// Mailboxes (spec document 2, "Mail: mailboxes"; docs/mailboxes.md), served by Dovecot. The platform keeps
// the records, and writes Dovecot's users file (address, argon2id hash, quota) from them after every change
// and at start-up; it reads mailboxes over IMAP as Dovecot's master user, whose password is derived from the
// deployment's secret key, so it never needs a mailbox's own password (which is write-only in the API).
//
//   c/<cid>/mailbox/<id>          the record (passwordHash never leaves the server)
//   mailbox-address/<address>     -> {companyId, id, passwordHash, quotaMb}: one address once on the
//                                    platform, and the users file's source

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "native/imap/imap_client.h"

namespace edge {
struct App;
}

namespace edge::mail {

namespace json = core::json;

struct MailboxFields {
  std::optional<std::string> domain_id, domain_name, local_part, display_name, password;
  std::optional<std::int64_t> quota_mb;
};

// Reads a create or update body: `domainId` (or `domain`, a name), `localPart`, `displayName`,
// `password` (8 to 1024 bytes), `quotaMb` (1..1048576). Errors: `invalid_field` / `missing_field`.
core::Result<MailboxFields> parse_mailbox_fields(const json::object& body);

// What the API shows (never the hash).
json::object mailbox_to_api(const json::object& record);

// Errors: `unprocessable` for a domain that is not a verified domain of the company, `conflict` for an
// address already present, `invalid_field`, `storage_error`.
core::Result<json::object> create_mailbox(App& app, std::string_view company_id, const MailboxFields& f);
// Display name, password and quota; at least one. Errors: `not_found`, `invalid_field`.
core::Result<json::object> update_mailbox(App& app, std::string_view company_id, std::string_view id,
                                          const MailboxFields& f);
core::Status delete_mailbox(App& app, std::string_view company_id, std::string_view id);
core::Result<json::array> list_mailboxes(App& app, std::string_view company_id);

// The mailbox of the company with `address`. `not_found` otherwise (another company's included).
core::Result<json::object> mailbox_by_address(App& app, std::string_view company_id,
                                              std::string_view address);

// Writes Dovecot's master-users and users files (Config::Mail::dovecot_dir) from the store. Serialized; a
// no-op without a Dovecot folder. Called at start-up and after each mailbox change.
core::Status sync_dovecot(App& app);

// How the platform logs in to read `address`. `unavailable` when no IMAP server is configured.
core::Result<native::imap::ImapAccount> imap_account(const App& app, std::string_view address);

}  // namespace edge::mail
