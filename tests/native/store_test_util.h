#pragma once
// Helpers shared by the store suites: open a store with one table, one-line reads and writes.

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "native/store/kv_store.h"
#include "native/store/lmdb_store.h"
#include "tests/native/temp_dir.h"

namespace store_test {

struct OpenedStore {
  std::unique_ptr<store::LmdbStore> store;
  store::Table table;
};

// Opens the store in `dir` and its table "t"; fails the test when either fails.
inline OpenedStore open_store(const TempDir& dir, store::LmdbOptions options = {}) {
  auto opened = store::LmdbStore::open(dir.str(), options);
  REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
  auto table = (*opened)->open_table("t");
  REQUIRE(table.ok());
  return {std::move(opened).value(), *table};
}

inline core::Status put(store::KvStore& kv, store::Table t, std::string_view key, std::string_view value) {
  return kv.write([&](store::WriteTxn& txn) {
    txn.put(t, key, value);
    return core::Status{};
  });
}

inline std::optional<std::string> get(store::KvStore& kv, store::Table t, std::string_view key) {
  std::optional<std::string> value;
  const core::Status status = kv.read([&](const store::ReadTxn& txn) {
    value = txn.get(t, key);
    return core::Status{};
  });
  REQUIRE(status.ok());
  return value;
}

// The keys a scan visits, at most `limit` of them.
inline std::vector<std::string> scan_keys(store::KvStore& kv, store::Table t, std::string_view prefix,
                                          std::string_view start_after = {}, std::size_t limit = SIZE_MAX) {
  std::vector<std::string> keys;
  const core::Status status = kv.read([&](const store::ReadTxn& txn) {
    txn.scan(
        t, prefix,
        [&](std::string_view key, std::string_view) {
          keys.emplace_back(key);
          return keys.size() < limit;
        },
        start_after);
    return core::Status{};
  });
  REQUIRE(status.ok());
  return keys;
}

}  // namespace store_test
