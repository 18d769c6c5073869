// Storage: usage per bucket and the company quota (spec document 2, "Storage"; docs/storage-api.md,
// "Quota"). Both read the committed counters; `reserved` shows what uploads in flight hold.

#include "edge/app.h"
#include "edge/platform/envelope.h"
#include "edge/platform/record_json.h"
#include "edge/storage/quota_ledger.h"
#include "edge/storage/storage_http.h"
#include "edge/storage/storage_routes.h"
#include "edge/storage/storage_store.h"

namespace edge::storage {
namespace {

Response usage(App& app, const CompanyContext& ctx) {
  json::array buckets;
  std::uint64_t used = 0, limit = 0;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    buckets.clear();
    used = read_counter(txn, app.storage_table, used_key(ctx.company.id));
    limit = quota_limit(app, txn, ctx.company.id);
    std::vector<json::object> all;
    txn.scan(app.storage_table, "c/" + ctx.company.id + "/bucket/",
             [&](std::string_view, std::string_view v) {
               if (auto b = core::parse_json_object(v)) all.push_back(std::move(*b));
               return true;
             });
    std::sort(all.begin(), all.end(), [](const json::object& a, const json::object& b) {
      return record::str(a, "slug") < record::str(b, "slug");
    });
    for (auto& b : all) {
      json::object u =
          record::get_object(txn, app.storage_table, usage_key(ctx.company.id, record::str(b, "id")))
              .value_or(json::object{});
      buckets.emplace_back(json::object{{"bucket", record::str(b, "slug")},
                                        {"name", record::str(b, "name")},
                                        {"bytes", record::num(u, "bytes")},
                                        {"count", record::num(u, "count")}});
    }
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  return envelope_ok(json::object{{"buckets", std::move(buckets)},
                                  {"used", static_cast<std::int64_t>(used)},
                                  {"limit", static_cast<std::int64_t>(limit)}});
}

Response quota(App& app, const CompanyContext& ctx) {
  std::uint64_t used = 0, limit = 0;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    used = read_counter(txn, app.storage_table, used_key(ctx.company.id));
    limit = quota_limit(app, txn, ctx.company.id);
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());
  return envelope_ok(
      json::object{{"used", static_cast<std::int64_t>(used)},
                   {"limit", static_cast<std::int64_t>(limit)},
                   {"reserved", static_cast<std::int64_t>(upload_reservations().reserved(ctx.company.id))}});
}

}  // namespace

void register_usage_routes(App& app) {
  add_storage_route(app, "GET", "/usage", "storage.view",
                    [&app](Request&, const CompanyContext& ctx) { return usage(app, ctx); });
  add_storage_route(app, "GET", "/storage-quota", "storage.view",
                    [&app](Request&, const CompanyContext& ctx) { return quota(app, ctx); });
}

}  // namespace edge::storage
