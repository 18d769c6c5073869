#pragma once
// LmdbStore: the KvStore on one LMDB environment, with durable group-committed writes.
//
// Threads: read() runs on the caller's thread in its own read-only transaction (MDB_NOTLS, so any thread may
// read, many at once). write() hands fn to the single writer thread and blocks; the writer applies every
// queued fn in a nested transaction of one shared transaction, commits it once, and answers all of them
// when the commit is on the disk: its data pages are flushed by its own fdatasync, its meta page by the next
// commit's (or, when no write is queued, by an explicit flush), so a busy store pays one device flush per
// commit. The writer thread is also the only one that grows the map, which it does while
// holding the ReaderGate exclusively.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "native/store/kv_store.h"
#include "native/store/reader_gate.h"
#include "native/store/write_queue.h"

typedef struct MDB_env MDB_env;
typedef struct MDB_txn MDB_txn;

namespace store {

// Counters of the writer, for tests and benchmarks.
struct LmdbStats {
  std::uint64_t write_requests = 0;  // write() calls answered by the writer thread
  std::uint64_t commits = 0;         // successful commits (one fdatasync each, of their data pages)
  std::uint64_t syncs = 0;           // extra flushes for a last commit's meta page when no commit followed
  std::uint64_t largest_group = 0;   // most requests that shared one commit
  std::uint64_t map_resizes = 0;     // times the map grew
  std::uint64_t reruns = 0;          // fn runs thrown away because their group had to be applied again
  std::size_t queued = 0;            // write() calls waiting for the writer right now
  std::size_t map_size = 0;          // current size of the memory map in bytes
};

class LmdbStore final : public KvStore {
 public:
  // Same as open_lmdb (see kv_store.h), returning the concrete type.
  static core::Result<std::unique_ptr<LmdbStore>> open(const std::string& directory,
                                                       LmdbOptions options = {});

  // Answers the write() calls already queued, stops the writer thread and closes the environment. No read()
  // or write() may be running or start.
  ~LmdbStore() override;

  LmdbStore(const LmdbStore&) = delete;
  LmdbStore& operator=(const LmdbStore&) = delete;

  // See KvStore. Also fails with `nested_transaction` when called from inside a read() or write() callback.
  core::Result<Table> open_table(std::string_view name) override;
  // See KvStore. `storage_error` also when no read slot is free (LmdbOptions::max_readers).
  core::Status read(const std::function<core::Status(const ReadTxn&)>& fn) override;
  // See KvStore. `storage_error` also when the map would have to grow beyond LmdbOptions::max_map_size, when
  // one fn dirties more pages than one LMDB transaction can hold, and after the store started closing.
  core::Status write(const std::function<core::Status(WriteTxn&)>& fn) override;

  LmdbStats stats() const;
  // ok, or the storage_error after which the store stopped taking writes (a failed commit or flush: the disk
  // may have dropped data it had accepted). Reopening the store is the only way back.
  core::Status health() const override;
  // See KvStore: the environment's last committed transaction id (mdb_env_info), read inside the gate
  // since the meta pages live in the map.
  std::uint64_t version() override;
  // The environment's flags (mdb_env_get_flags): lets tests prove that commits are synchronous.
  unsigned env_flags() const;
  std::size_t max_key_size() const { return max_key_size_; }

 private:
  enum class Outcome;
  struct Registration;

  LmdbStore(MDB_env* env, LmdbOptions options, std::unique_ptr<Registration> registration);

  void writer_loop();
  // Flushes the last commit's meta page (mdb_env_sync) and answers the requests waiting for it.
  void sync_and_answer();
  // Answers the requests of the commit before the one that just flushed (or of the flushed one).
  void answer_unsynced();
  void stop_writes(const core::Error& error);
  // Applies `requests` (in order) and finishes every one of them.
  void apply(std::vector<WriteRequest*>& requests);
  // Runs one request's fn in a child transaction of `parent`; sets its result unless the outcome says the
  // group must be cut or retried.
  Outcome run_child(MDB_txn* parent, WriteRequest& request);
  // Doubles the map (up to max_map_size). The _locked form requires the gate held exclusively and
  // write_txn_mutex_; the other takes both (the caller must hold neither).
  core::Status grow_map_locked();
  core::Status grow_map();
  // Adopts the map size another process set (after MDB_MAP_RESIZED); same locking as grow_map.
  int adopt_map_size_locked();
  int adopt_map_size();
  // Reads the map size from LMDB; only where no remap can run concurrently (stats() uses map_size_).
  std::size_t current_map_size() const;
  bool inside_read_here() const;

  MDB_env* env_;
  LmdbOptions options_;
  std::unique_ptr<Registration> registration_;
  std::size_t max_key_size_;
  ReaderGate gate_;
  WriteQueue queue_;
  // Held while this process has a write transaction (the writer's pass, open_table) and while the map is
  // remapped. Lock order: gate_ (exclusive), then write_txn_mutex_. The writer thread takes it without the
  // gate, and a read() on the writer thread (from inside a write callback) therefore never waits at the gate:
  // no remap can run while it holds this mutex.
  std::mutex write_txn_mutex_;
  std::mutex open_table_mutex_;
  std::atomic<std::size_t> map_size_{0};
  std::atomic<std::uint64_t> write_requests_{0}, commits_{0}, syncs_{0}, largest_group_{0}, map_resizes_{0},
      reruns_{0};
  // Requests of the last commit, applied and committed but not answered until its meta page is flushed.
  // Writer thread only.
  std::vector<WriteRequest*> unsynced_;
  mutable std::mutex health_mutex_;
  std::optional<core::Error> failure_;
  std::thread writer_;
};

}  // namespace store
