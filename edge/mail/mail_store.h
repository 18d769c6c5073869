#pragma once
// Where the mail product keeps its records: the `mail` table, keys as readable paths (docs/mail-api.md,
// "Store"). Company records live under `c/<companyId>/`, so one company's data is one key range and a
// foreign id is simply not found there (404).
//
//   c/<cid>/domain/<id>                  sending domain (DKIM private keys sealed)
//   c/<cid>/domain-name/<name>           -> domain id (one domain name once per company)
//   domain-recheck/<cid>/<id>            pending domains the background re-checks
//   dkim-tag/<tag>                       -> <cid>/<domain id>: the keys the platform's DKIM zone serves
//   c/<cid>/template/<id>                template
//   c/<cid>/log/<id>                     mail log: one per send, with its recipients and timeline
//   c/<cid>/body/<id>                    what a send delivers (rendered subject, html, text, attachments)
//   c/<cid>/suppression/<address>        suppression entry (address lower-cased)
//   c/<cid>/suppression-id/<id>          -> address
//   c/<cid>/idem/<sha256>                Idempotency-Key of POST /send
//   c/<cid>/stat/<YYYY-MM-DD>/<event>    analytics counter
//   outbox/<due ms, 16 digits>/<cid>/<log id>/<recipient index>   delivery job

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::mail {

namespace json = core::json;

std::string company_key(std::string_view company_id, std::string_view kind, std::string_view id);
std::string company_prefix(std::string_view company_id, std::string_view kind);

// Fixed width so keys sort by time.
std::string due_text(std::int64_t due_ms);
std::string outbox_key(std::int64_t due_ms, std::string_view company_id, std::string_view log_id,
                       std::size_t recipient);

// The JSON object under `key` in the mail table, or nullopt. A value that is not an object reads as missing.
std::optional<json::object> get_object(const store::ReadTxn& txn, store::Table table, std::string_view key);
// The same in its own read transaction. Errors: `storage_error`.
core::Result<std::optional<json::object>> read_object(App& app, std::string_view key);

void put_object(store::WriteTxn& txn, store::Table table, std::string_view key, const json::object& value);

// ISO 8601 text of now.
std::string now_text(App& app);

}  // namespace edge::mail
