#pragma once
// KvStore: the storage interface every product uses. Ordered byte keys in named tables, read transactions on
// one consistent snapshot, write transactions that are durable when they return ok.
//
// The interface stays small on purpose: LMDB implements it here (open_lmdb), and a second backend on an
// existing engine (PostgreSQL through libpq) must be able to implement it without touching product code.
// Keys are readable paths such as `c/<companyId>/order/<id>`; values are JSON; a secondary index is written
// in the same write() as its record.
//
// Error codes (core::Error::code) produced by the store:
//   storage_error        the engine failed (I/O error, disk full, corrupt file, map cannot grow, ...); the
//                        message carries the engine's text. Nothing of the failed write() was kept
//                        (but see write() for a disk failing during the commit itself).
//   key_too_long         WriteTxn::put got a key longer than the backend allows (511 bytes for LMDB).
//   empty_key            WriteTxn::put got an empty key.
//   invalid_table_name   open_table got an empty name, one containing NUL or one longer than a key may be.
//   nested_transaction   write() or open_table() was called from inside a read() or write() callback of
//                        the same store, which would deadlock.
//   already_open         open_lmdb: this process already has a store open on that directory.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace store {

// Handle of a named table (an LMDB named database), obtained once at startup with KvStore::open_table and
// valid until the store is destroyed. A default-constructed Table names no table: using it fails.
struct Table {
  unsigned id = 0;
};

// A consistent snapshot. Valid only inside the read() or write() callback that received it; use it from
// that callback's thread only.
class ReadTxn {
 public:
  virtual ~ReadTxn() = default;

  // Returns the value stored under `key` in `t`, or nullopt when there is none. A key that no put could have
  // stored (empty, or longer than the maximum) simply is not found. When the engine fails, returns nullopt
  // and the enclosing read()/write() reports `storage_error`.
  virtual std::optional<std::string> get(Table t, std::string_view key) const = 0;

  // Visits keys that start with `prefix`, ascending, beginning after `start_after` when it is non-empty; fn
  // returns false to stop. `start_after` need not exist (paging resumes after the last key of the previous
  // page even if it was erased since). The views passed to fn are valid until fn returns, and in a WriteTxn
  // only until fn's next put or erase. In a WriteTxn fn may erase the key being visited and put other keys;
  // whether keys put during the scan are visited is unspecified. When the engine fails the scan stops and the
  // enclosing read()/write() reports `storage_error`.
  virtual void scan(Table t, std::string_view prefix,
                    const std::function<bool(std::string_view key, std::string_view value)>& fn,
                    std::string_view start_after = {}) const = 0;

  // The store's version (KvStore::version) whose data this snapshot shows; in a WriteTxn, the version its
  // commit will have.
  virtual std::uint64_t version() const = 0;
};

// A write transaction; reads through it see its own writes.
class WriteTxn : public ReadTxn {
 public:
  // Stores `value` under `key` in `t`, replacing any previous value. Fails, without crashing and without
  // writing, when the key is empty (`empty_key`) or too long (`key_too_long`, see lmdb_max_key_size()) or the
  // engine fails (`storage_error`): the failure is recorded in the transaction, every later write of it is
  // ignored, and write() returns that error instead of fn's result, keeping nothing fn wrote.
  virtual void put(Table t, std::string_view key, std::string_view value) = 0;

  // Removes `key` from `t`. Returns true when the key existed. A key that cannot exist returns false.
  // An engine failure is recorded like put's and returns false.
  virtual bool erase(Table t, std::string_view key) = 0;
};

class KvStore {
 public:
  virtual ~KvStore() = default;

  // Opens (creating if needed) the named table and returns its handle; opening the same name again returns
  // the same handle. Call before serving, from one thread (tables opened while other threads read or write
  // are not guaranteed to be visible to transactions that began earlier).
  // Errors: `invalid_table_name` (empty, containing NUL or too long), `nested_transaction` (called from
  // inside a read() or write() callback), `storage_error` (for LMDB also when more than
  // LmdbOptions::max_tables tables exist).
  virtual core::Result<Table> open_table(std::string_view name) = 0;

  // Runs fn against one consistent snapshot. fn's error is returned as is. When the engine failed during fn
  // (a get or scan could not read), returns `storage_error` whatever fn returned, because fn may have decided
  // on data it never saw. Keep fn short: while it runs the snapshot pins old pages and, for LMDB, the map
  // cannot grow. fn may call read() again (a separate snapshot); write() and open_table() from fn return
  // `nested_transaction`.
  // Exceptions thrown by fn propagate to the caller; the snapshot is released.
  virtual core::Status read(const std::function<core::Status(const ReadTxn&)>& fn) = 0;

  // Runs fn in a write transaction. When fn returns ok, its writes are durably committed (fsync'd) before
  // write() returns ok; when fn returns an error, nothing fn wrote is kept and that error is returned.
  // Concurrent callers are grouped into one shared commit (group commit): one failing fn rolls back alone.
  // A storage failure returns an error with code `storage_error`.
  //
  // Further contract:
  //  - Writes are serializable: fns run one at a time, each sees everything committed or applied before it,
  //    including earlier fns of the same group.
  //  - fn may run more than once (the store re-runs a group after growing its map); only the last run counts.
  //    So fn must act only through the WriteTxn and on its own captured results, never on the outside world
  //    (send mail through an outbox entry instead).
  //  - fn runs on the store's writer thread, not on the caller's: it must not block on the caller's locks,
  //    and it holds up every other writer while it runs: never do network I/O in it.
  //  - A put/erase failure recorded in the txn (see WriteTxn::put) takes precedence over fn's result.
  //  - After `storage_error` nothing fn wrote is visible to later transactions. One exception, as in any
  //    database: when the disk fails during the commit itself (fsync error), the outcome is unknown and the
  //    writes may be found after a restart (LMDB then refuses further writes until the store is reopened).
  //  - If fn throws, its writes are discarded and the exception is rethrown to the caller of write().
  //  - Calling write() from inside a read() or write() callback of the same store returns
  //    `nested_transaction` (it would deadlock).
  virtual core::Status write(const std::function<core::Status(WriteTxn&)>& fn) = 0;

  // ok while the store takes writes; otherwise the `storage_error` that stopped it (a commit or flush the
  // disk failed: acknowledging anything after that could lose it). Cheap; for health checks.
  virtual core::Status health() const = 0;

  // A number that grows whenever a write commits, in this process or another (for LMDB the last committed
  // transaction id). Cheap: no transaction. Once a write() has returned, version() is at least the version
  // of its commit; it may run ahead of the snapshot a read() begun at the same moment gets (LMDB publishes
  // a commit's meta page before its readers' table), so a value is current while version() equals the
  // ReadTxn::version() it was computed from, never merely because version() did not move
  // (store::SnapshotCache).
  virtual std::uint64_t version() = 0;
};

struct LmdbOptions {
  // Starting size of the memory map. It is address space, not disk: the data file grows with the data. When
  // full the map doubles, up to max_map_size; growing waits for every read in flight and holds new reads and
  // writes meanwhile, so the default reserves the whole max_map_size at once and never grows. On reopen the
  // map is at least as large as the data.
  std::size_t initial_map_size = std::size_t{1} << 40;
  // Maximum number of named tables (MDB_maxdbs).
  unsigned max_tables = 64;
  // Maximum number of queued write() requests applied under one commit.
  std::size_t max_batch = 256;
  // Maximum number of read transactions open at once across all threads (MDB_maxreaders). A read() beyond it
  // returns `storage_error`.
  unsigned max_readers = 1024;
  // The map never grows beyond this; a write that needs more returns `storage_error`.
  std::size_t max_map_size = std::size_t{1} << 40;
};

// Opens the LMDB store in `directory` (created, with parents, when missing): one environment with durable
// commits. At most one store per directory per process.
// Errors: `storage_error` (directory cannot be created, LMDB cannot open or create the environment: no
// permission, not an LMDB file, version mismatch, ...), `already_open`.
core::Result<std::unique_ptr<KvStore>> open_lmdb(const std::string& directory, LmdbOptions options = {});

// The longest key LMDB accepts (511 bytes with Debian's build).
std::size_t lmdb_max_key_size();

}  // namespace store
