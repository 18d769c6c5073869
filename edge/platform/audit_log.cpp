#include "edge/platform/audit_log.h"

#include <algorithm>
#include <cstdio>

#include "core/date.h"
#include "core/id.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"

namespace edge {
namespace json = core::json;

namespace {
std::string audit_key(std::string_view company_id, std::int64_t at_ms, std::string_view id) {
  char ms[24];
  std::snprintf(ms, sizeof ms, "%015lld", static_cast<long long>(at_ms < 0 ? 0 : at_ms));
  return std::string(company_id) + "/" + ms + "/" + std::string(id);
}
}  // namespace

void append_audit(store::WriteTxn& txn, store::Table table, const CompanyContext& ctx,
                  const AuditEntry& entry, std::string_view id, std::int64_t at_ms) {
  json::object rec{
      {"id", id},
      {"at", core::format_timestamp(at_ms)},
      {"action", entry.action},
      {"actor", json::object{{"kind", ctx.principal.kind == Principal::Kind::user ? "user" : "token"},
                             {"id", ctx.principal.id}}},
      {"details", entry.details}};
  txn.put(table, audit_key(ctx.company.id, at_ms, id), core::to_json(rec));
}

core::Status record_audit(App& app, const CompanyContext& ctx, const AuditEntry& entry) {
  std::string id = core::make_id("aud_", app.random);
  std::int64_t at = app.clock.now_ms();
  store::Table t = app.audit_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    append_audit(txn, t, ctx, entry, id, at);
    return {};
  });
}

core::Result<std::vector<json::object>> list_audit(App& app, std::string_view company_id,
                                                   std::string_view action_prefix) {
  std::vector<json::object> out;
  store::Table t = app.audit_table;
  std::string prefix = std::string(company_id) + "/";
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(t, prefix, [&](std::string_view, std::string_view value) {
      auto rec = core::parse_json_object(value);
      if (rec && record::str(*rec, "action").starts_with(action_prefix)) out.push_back(std::move(*rec));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace edge
