#pragma once
// Reading and writing the JSON of stored records. Stored records are written only by this program, so a
// missing or mistyped member reads as empty rather than failing the request that touches it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/date.h"
#include "core/json.h"
#include "native/store/kv_store.h"

namespace edge::record {

namespace json = core::json;

inline std::string str(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

inline std::int64_t num(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v && v->is_int64() ? v->get_int64() : 0;
}

inline std::optional<std::int64_t> opt_num(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  if (!v || !v->is_int64()) return std::nullopt;
  return v->get_int64();
}

inline bool boolean(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v && v->is_bool() && v->get_bool();
}

inline std::vector<std::string> strs(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  if (auto* v = o.if_contains(key); v && v->is_array())
    for (auto& e : v->get_array())
      if (e.is_string()) out.emplace_back(e.get_string());
  return out;
}

inline json::array array_of(const std::vector<std::string>& v) {
  json::array a;
  for (auto& s : v) a.emplace_back(s);
  return a;
}

// The JSON object under `key`, or nullopt. A value that is not an object reads as missing.
inline std::optional<json::object> get_object(const store::ReadTxn& txn, store::Table table,
                                              std::string_view key) {
  auto raw = txn.get(table, key);
  if (!raw) return std::nullopt;
  auto parsed = core::parse_json_object(*raw);
  if (!parsed) return std::nullopt;
  return std::move(*parsed);
}

inline void put_object(store::WriteTxn& txn, store::Table table, std::string_view key,
                       const json::object& value) {
  txn.put(table, key, core::to_json(value));
}

// get_object in a read transaction of its own. Errors: the store's.
inline core::Result<std::optional<json::object>> read_object(store::KvStore& kv, store::Table table,
                                                             std::string_view key) {
  std::optional<json::object> out;
  auto st = kv.read([&](const store::ReadTxn& txn) -> core::Status {
    out = get_object(txn, table, key);
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

// Every record whose key starts with `prefix` that is a JSON object, in key order, in one read
// transaction. Errors: the store's.
inline core::Result<std::vector<json::object>> read_objects(store::KvStore& kv, store::Table table,
                                                            std::string_view prefix) {
  std::vector<json::object> out;
  auto st = kv.read([&](const store::ReadTxn& txn) -> core::Status {
    out.clear();
    txn.scan(table, prefix, [&](std::string_view, std::string_view value) {
      if (auto parsed = core::parse_json_object(value)) out.push_back(std::move(*parsed));
      return true;
    });
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

// ISO 8601 text for an API response, or null.
inline json::value time_or_null(std::optional<std::int64_t> ms) {
  return ms ? json::value(core::format_timestamp(*ms)) : json::value(nullptr);
}

}  // namespace edge::record
