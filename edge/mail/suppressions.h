#pragma once
// The suppression list (spec document 2, "States and transitions"): addresses later sends skip silently.
// An entry says why (reason `bounce`, `complaint` or `manual`), what caused it (the event, its mail log and
// the server's answer) and when, so GET /suppressions/{address} answers "why was this not sent?".
// Addresses are compared without case (the key is the lower-cased address).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::mail {

namespace json = core::json;

std::string suppression_key(std::string_view company_id, std::string_view address);
std::string suppression_id_key(std::string_view company_id, std::string_view id);

// The entry for `address`, if listed.
std::optional<json::object> find_suppression(App& app, const store::ReadTxn& txn, std::string_view company_id,
                                             std::string_view address);

// Lists `address` unless it is already listed (the first cause stays); returns the entry as stored.
// `source`: {event, mailLogId, detail} of the event that caused it, or null for a manual entry.
json::object add_suppression(App& app, store::WriteTxn& txn, std::string_view company_id,
                             std::string_view address, std::string_view reason, json::value source,
                             std::int64_t now_ms);

// Removes the entry named by its address or its id. Returns the removed entry, or nullopt when none.
std::optional<json::object> remove_suppression(App& app, store::WriteTxn& txn, std::string_view company_id,
                                               std::string_view address_or_id);

}  // namespace edge::mail
