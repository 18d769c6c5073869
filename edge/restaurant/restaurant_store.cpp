#include "edge/restaurant/restaurant_store.h"

#include "edge/app.h"
#include "edge/platform/record_json.h"

namespace edge::restaurant {

namespace {
std::optional<json::object> parse_object(std::string_view text) {
  auto v = core::parse_json_object(text);
  if (!v) return std::nullopt;
  return std::move(*v);
}
}  // namespace

core::Result<std::optional<json::object>> get_record(App& app, const std::string& key) {
  return record::read_object(*app.kv, app.restaurant_table, key);
}

core::Result<std::vector<json::object>> list_records(App& app, const std::string& prefix) {
  return record::read_objects(*app.kv, app.restaurant_table, prefix);
}

core::Status update_record(App& app, const std::string& key, std::string_view not_found_code,
                           const std::function<core::Status(json::object&)>& modify, json::object& out) {
  return update_record(
      app, key, not_found_code, [&modify](json::object& rec, const store::ReadTxn&) { return modify(rec); },
      out);
}

core::Status update_record(App& app, const std::string& key, std::string_view not_found_code,
                           const std::function<core::Status(json::object&, const store::ReadTxn&)>& modify,
                           json::object& out) {
  store::Table t = app.restaurant_table;
  std::string code(not_found_code);
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto v = txn.get(t, key);
    std::optional<json::object> rec = v ? parse_object(*v) : std::nullopt;
    if (!rec) return core::make_error(code, "no such record");
    auto st = modify(*rec, txn);
    if (!st.ok()) return st;
    txn.put(t, key, core::to_json(*rec));
    out = std::move(*rec);
    return {};
  });
}

core::Status erase_record(App& app, const std::string& key, std::string_view not_found_code) {
  store::Table t = app.restaurant_table;
  std::string code(not_found_code);
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(t, key)) return core::make_error(code, "no such record");
    return {};
  });
}

core::Result<json::object> load_branch(App& app, const CompanyContext& ctx, std::string_view branch_id) {
  if (!is_key_segment(branch_id)) return core::make_error("branch_not_found", "branch not found");
  auto rec = get_record(app, company_key(ctx, "branch", branch_id));
  if (!rec) return rec.error();
  if (!*rec) return core::make_error("branch_not_found", "branch not found");
  return std::move(**rec);
}

}  // namespace edge::restaurant
