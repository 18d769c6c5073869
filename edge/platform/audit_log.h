#pragma once
// The company audit log: who did what, when, in the `audit` table. Entries are written in the same durable
// write as the action they record (or right after it, for actions that write nothing else, such as a
// report export) and are never changed. They hold no secret values: callers put identifiers and query
// parameters in `details`, never plaintext secrets or tokens.
//
// Key: `<companyId>/<unix ms, 15 digits>/<entry id>`, so one prefix scan lists a company's entries in time
// order. Entry JSON: {id (aud_...), at (ISO 8601 UTC ms), action, actor: {kind: "token"|"user", id},
// details}.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "edge/platform/company_auth.h"
#include "native/store/kv_store.h"

namespace edge {

struct AuditEntry {
  std::string action;  // dotted, product first: `restaurant.report.export`
  core::json::object details;
};

// Appends one entry inside the caller's write transaction. `id` and `at_ms` are made before the transaction
// (its function may run more than once).
void append_audit(store::WriteTxn& txn, store::Table table, const CompanyContext& ctx,
                  const AuditEntry& entry, std::string_view id, std::int64_t at_ms);

// Appends one entry in its own durable write.
core::Status record_audit(App& app, const CompanyContext& ctx, const AuditEntry& entry);

// The company's entries whose action starts with `action_prefix`, newest first.
core::Result<std::vector<core::json::object>> list_audit(App& app, std::string_view company_id,
                                                         std::string_view action_prefix);

}  // namespace edge
