#pragma once
// ReadTxn and WriteTxn over one LMDB transaction (internal to the LMDB store).
//
// Engine failures cannot be returned through get/scan/put/erase, so the first one is recorded in the
// transaction; the store reports it when the read() or write() callback returns.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "native/store/kv_store.h"

typedef struct MDB_txn MDB_txn;

namespace store::lmdb {

// `storage_error` carrying LMDB's text for `rc`, e.g. "commit: MDB_MAP_FULL: Environment mapsize limit
// reached".
core::Error storage_error(int rc, std::string_view what);

// The operations shared by both transaction kinds. Not thread-safe; `txn` must outlive it.
class TxnOps {
 public:
  TxnOps(MDB_txn* txn, std::size_t max_key_size) : txn_(txn), max_key_size_(max_key_size) {}

  std::optional<std::string> get(Table t, std::string_view key) const;
  void scan(Table t, std::string_view prefix,
            const std::function<bool(std::string_view, std::string_view)>& fn,
            std::string_view start_after) const;
  // Ignored once a failure is recorded.
  void put(Table t, std::string_view key, std::string_view value);
  bool erase(Table t, std::string_view key);

  // The first failure, if any; `failure_rc()` is its LMDB code (0 for a rejected key).
  const std::optional<core::Error>& failure() const { return failure_; }
  int failure_rc() const { return failure_rc_; }
  // mdb_txn_id: the snapshot's transaction id (a write transaction's: the id it commits as).
  std::uint64_t id() const;

 private:
  void fail(int rc, std::string_view what) const;
  void reject(core::Error error) const;

  MDB_txn* txn_;
  std::size_t max_key_size_;
  mutable std::optional<core::Error> failure_;
  mutable int failure_rc_ = 0;
};

class LmdbReadTxn final : public ReadTxn {
 public:
  LmdbReadTxn(MDB_txn* txn, std::size_t max_key_size) : ops_(txn, max_key_size) {}

  std::optional<std::string> get(Table t, std::string_view key) const override { return ops_.get(t, key); }
  void scan(Table t, std::string_view prefix,
            const std::function<bool(std::string_view key, std::string_view value)>& fn,
            std::string_view start_after = {}) const override {
    ops_.scan(t, prefix, fn, start_after);
  }
  std::uint64_t version() const override { return ops_.id(); }

  const TxnOps& ops() const { return ops_; }

 private:
  TxnOps ops_;
};

class LmdbWriteTxn final : public WriteTxn {
 public:
  LmdbWriteTxn(MDB_txn* txn, std::size_t max_key_size) : ops_(txn, max_key_size) {}

  std::optional<std::string> get(Table t, std::string_view key) const override { return ops_.get(t, key); }
  void scan(Table t, std::string_view prefix,
            const std::function<bool(std::string_view key, std::string_view value)>& fn,
            std::string_view start_after = {}) const override {
    ops_.scan(t, prefix, fn, start_after);
  }
  std::uint64_t version() const override { return ops_.id(); }
  void put(Table t, std::string_view key, std::string_view value) override { ops_.put(t, key, value); }
  bool erase(Table t, std::string_view key) override { return ops_.erase(t, key); }

  const TxnOps& ops() const { return ops_; }

 private:
  TxnOps ops_;
};

}  // namespace store::lmdb
