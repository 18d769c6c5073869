#pragma once
// Restaurant records in the `restaurant` table: JSON objects (exactly as the API shows them) under
// `c/<companyId>/<kind>/<id>` (income rows: `c/<companyId>/income/<branchId>/<YYYY-MM-DD>/<channel>`).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "edge/platform/company_auth.h"
#include "native/store/kv_store.h"

namespace edge::restaurant {

namespace json = core::json;

inline std::string company_key(const CompanyContext& ctx, std::string_view kind, std::string_view id) {
  return "c/" + ctx.company.id + "/" + std::string(kind) + "/" + std::string(id);
}

core::Result<std::optional<json::object>> get_record(App& app, const std::string& key);
// Every record whose key starts with `prefix`, in key order.
core::Result<std::vector<json::object>> list_records(App& app, const std::string& prefix);
// Reads the record under `key` in a write transaction, lets `modify` change it (it may run more than once,
// so it must only touch the object) and stores it. `not_found_code` when there is none; `modify`'s error
// otherwise (nothing written). `out`: as stored.
core::Status update_record(App& app, const std::string& key, std::string_view not_found_code,
                           const std::function<core::Status(json::object&)>& modify, json::object& out);
// The same, `modify` also reading the write transaction, so the records a change refers to are checked on
// the snapshot the change commits on (a reference deleted meanwhile is never stored).
core::Status update_record(App& app, const std::string& key, std::string_view not_found_code,
                           const std::function<core::Status(json::object&, const store::ReadTxn&)>& modify,
                           json::object& out);
// Removes the record; `not_found_code` when there is none.
core::Status erase_record(App& app, const std::string& key, std::string_view not_found_code);

// Whether `id` can be one segment of a record key: non-empty and without '/'. Anything else names no record,
// so lookups answer *_not_found without reading.
inline bool is_key_segment(std::string_view id) {
  return !id.empty() && id.find('/') == std::string_view::npos;
}

// The company's branch, or `branch_not_found`.
core::Result<json::object> load_branch(App& app, const CompanyContext& ctx, std::string_view branch_id);

}  // namespace edge::restaurant
