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
//
// Log indexes, newest first (written by record_events from the log as stored; GET /logs reads them):
//   c/<cid>/logidx/all/<order>                        -> the log's status as last indexed
//   c/<cid>/logidx/status/<status>/<order>            -> ""
//   c/<cid>/logidx/domain/<domain>/<order>            -> ""
//   c/<cid>/logidx/from/<address>/<order>             -> ""  (the bare from address, lower-cased)
//   c/<cid>/logidx/to/<address>/<order>               -> ""  (one per recipient, lower-cased)
// where <order> is log_order(createdAt, log id): 16 digits counting down with time, so an ascending scan
// meets the newest log first.
//
// Webhooks (edge/mail/webhooks.h):
//   c/<cid>/webhook/<id>                              endpoint (signing secret sealed)
//   c/<cid>/webhook-delivery/<webhook id>/<id>        one event for one endpoint: attempts and outcome
//   whout/<due ms, 16 digits>/<cid>/<delivery id>     delivery job -> {webhookId, manual}

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/result.h"
#include "edge/platform/record_json.h"
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

// The sort text of a log in the indexes above: newest first, then by id.
inline std::string log_order(std::int64_t created_ms, std::string_view log_id) {
  constexpr std::int64_t kLast = 9'999'999'999'999'999;  // 16 digits, past year 300000
  return due_text(kLast - (created_ms < 0 ? 0 : created_ms)) + "/" + std::string(log_id);
}
// `c/<cid>/logidx/all/` for field `all`, else `c/<cid>/logidx/<field>/<value>/`.
inline std::string log_index_prefix(std::string_view company_id, std::string_view field,
                                    std::string_view value = {}) {
  std::string p = company_prefix(company_id, "logidx") + std::string(field) + "/";
  if (field != "all") p += std::string(value) + "/";
  return p;
}

using record::get_object;
using record::put_object;
// get_object in its own read transaction of the mail table. Errors: `storage_error`.
core::Result<std::optional<json::object>> read_object(App& app, std::string_view key);

// ISO 8601 text of now.
std::string now_text(App& app);

}  // namespace edge::mail
