#include "native/store/lmdb_store.h"

#include <lmdb.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "native/store/lmdb_txn.h"

namespace store {

using lmdb::storage_error;

namespace {

// What the calling thread is doing with which store, to refuse calls that would deadlock.
struct ThreadRole {
  const LmdbStore* writer_of = nullptr;   // this thread is that store's writer thread
  std::vector<const LmdbStore*> reading;  // read() callbacks running on this thread
};
thread_local ThreadRole t_role;

// Pops the reading entry and leaves the gate when read() ends, also when fn throws.
class ReadScope {
 public:
  ReadScope(ReaderGate& gate, const LmdbStore* store, bool nested) : gate_(gate) {
    gate_.enter_shared(nested);
    t_role.reading.push_back(store);
  }
  ~ReadScope() {
    t_role.reading.pop_back();
    gate_.leave_shared();
  }
  ReadScope(const ReadScope&) = delete;
  ReadScope& operator=(const ReadScope&) = delete;

 private:
  ReaderGate& gate_;
};

struct TxnAborter {
  MDB_txn* txn;
  ~TxnAborter() {
    if (txn != nullptr) mdb_txn_abort(txn);
  }
};

struct ExclusiveGate {
  ReaderGate& gate;
  explicit ExclusiveGate(ReaderGate& g) : gate(g) { gate.lock_exclusive(); }
  ~ExclusiveGate() { gate.unlock_exclusive(); }
  ExclusiveGate(const ExclusiveGate&) = delete;
  ExclusiveGate& operator=(const ExclusiveGate&) = delete;
};

core::Error nested_transaction_error() {
  return core::make_error(
      "nested_transaction",
      "write() and open_table() cannot be called from inside a read() or write() callback "
      "of the same store");
}

// Directories with an open store in this process: LMDB must not open one environment twice in a process
// (closing either would drop the other's file locks).
std::mutex g_registry_mutex;
std::set<std::string> g_open_directories;

}  // namespace

enum class LmdbStore::Outcome {
  kApplied,     // fn returned ok, its child transaction is committed into the parent
  kRolledBack,  // fn (or its txn) failed; the child is aborted; the result is set
  kNeedsRoom,   // the map is full: cut the group here and grow
  kTooLarge,    // the parent cannot hold more dirty pages: cut the group here
  kParentLost,  // the child commit failed and the parent may be damaged: abort it; the result is set
};

struct LmdbStore::Registration {
  std::string directory;
  ~Registration() {
    std::lock_guard lock(g_registry_mutex);
    g_open_directories.erase(directory);
  }
};

core::Result<std::unique_ptr<KvStore>> open_lmdb(const std::string& directory, LmdbOptions options) {
  auto opened = LmdbStore::open(directory, options);
  if (!opened.ok()) return opened.error();
  return std::unique_ptr<KvStore>(std::move(opened).value());
}

std::size_t lmdb_max_key_size() {
  return static_cast<std::size_t>(mdb_env_get_maxkeysize(nullptr));
}

core::Result<std::unique_ptr<LmdbStore>> LmdbStore::open(const std::string& directory, LmdbOptions options) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec)
    return core::make_error("storage_error", "cannot create directory " + directory + ": " + ec.message());
  const std::filesystem::path canonical = std::filesystem::canonical(directory, ec);
  if (ec)
    return core::make_error("storage_error", "cannot resolve directory " + directory + ": " + ec.message());

  {
    std::lock_guard lock(g_registry_mutex);
    if (!g_open_directories.insert(canonical.string()).second) {
      return core::make_error("already_open", "a store is already open on " + canonical.string());
    }
  }
  auto registration = std::make_unique<Registration>(canonical.string());

  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  options.max_batch = std::max<std::size_t>(options.max_batch, 1);
  options.max_tables = std::max(options.max_tables, 1u);
  options.max_readers = std::max(options.max_readers, 1u);
  options.initial_map_size = std::max((options.initial_map_size + page - 1) / page * page, 16 * page);
  options.max_map_size = std::max(options.max_map_size, options.initial_map_size);

  MDB_env* env = nullptr;
  if (const int rc = mdb_env_create(&env); rc != 0) return storage_error(rc, "mdb_env_create");
  int rc = mdb_env_set_maxdbs(env, options.max_tables);
  if (rc == 0) rc = mdb_env_set_maxreaders(env, options.max_readers);
  if (rc == 0) rc = mdb_env_set_mapsize(env, options.initial_map_size);
  // MDB_NOTLS: read transactions are not tied to a thread's slot.
  // MDB_NOMETASYNC: a commit flushes its data pages (fdatasync) before it writes its meta page, which LMDB
  // then writes without a flush of its own. The meta page reaches the disk with the next commit's fdatasync
  // or an explicit mdb_env_sync, and the writer answers a commit's requests only after that (see
  // answer_synced): one device flush per commit instead of two, and nothing is acknowledged before it is on
  // disk. A power loss before that flush loses the unacknowledged commit only; LMDB keeps the previous meta
  // page's tree intact (pages freed by the last commit are never reused by the next one).
  // Never MDB_NOSYNC, MDB_MAPASYNC or MDB_WRITEMAP.
  if (rc == 0) rc = mdb_env_open(env, canonical.c_str(), MDB_NOTLS | MDB_NOMETASYNC, 0600);
  if (rc != 0) {
    mdb_env_close(env);
    return storage_error(rc, "open " + canonical.string());
  }
  int stale_readers = 0;
  mdb_reader_check(env, &stale_readers);  // slots left by crashed processes
  return std::unique_ptr<LmdbStore>(new LmdbStore(env, options, std::move(registration)));
}

LmdbStore::LmdbStore(MDB_env* env, LmdbOptions options, std::unique_ptr<Registration> registration)
    : env_(env),
      options_(options),
      registration_(std::move(registration)),
      max_key_size_(static_cast<std::size_t>(mdb_env_get_maxkeysize(env))) {
  map_size_ = current_map_size();
  writer_ = std::thread([this] { writer_loop(); });
}

LmdbStore::~LmdbStore() {
  queue_.close();
  writer_.join();
  mdb_env_close(env_);
}

bool LmdbStore::inside_read_here() const {
  return std::find(t_role.reading.begin(), t_role.reading.end(), this) != t_role.reading.end();
}

core::Result<Table> LmdbStore::open_table(std::string_view name) {
  if (name.empty() || name.size() > max_key_size_ || name.find('\0') != std::string_view::npos) {
    return core::make_error("invalid_table_name", "a table name must be 1 to " +
                                                      std::to_string(max_key_size_) + " bytes without NUL");
  }
  if (t_role.writer_of == this || inside_read_here()) return nested_transaction_error();
  const std::string name_z(name);
  std::lock_guard serial(open_table_mutex_);
  // The locks of a remap: no remap (and no writer pass) can run while this thread has a write transaction.
  ExclusiveGate exclusive(gate_);
  std::lock_guard txn_lock(write_txn_mutex_);
  for (;;) {
    MDB_txn* txn = nullptr;
    int rc = mdb_txn_begin(env_, nullptr, 0, &txn);
    if (rc == MDB_MAP_RESIZED && adopt_map_size_locked() == 0) continue;
    if (rc != 0) return storage_error(rc, "open_table");
    MDB_dbi dbi = 0;
    rc = mdb_dbi_open(txn, name_z.c_str(), MDB_CREATE, &dbi);
    if (rc != 0) {
      mdb_txn_abort(txn);
    } else {
      rc = mdb_txn_commit(txn);
      if (rc == 0) return Table{dbi};
    }
    if (rc == MDB_MAP_FULL) {
      CORE_TRY(grow_map_locked());
      continue;
    }
    return storage_error(rc, "open_table " + name_z);
  }
}

core::Status LmdbStore::read(const std::function<core::Status(const ReadTxn&)>& fn) {
  // On the writer thread (a read() inside a write callback) the writer holds write_txn_mutex_, so no remap
  // can be under way and waiting for one would deadlock.
  const bool nested = inside_read_here() || t_role.writer_of == this;
  for (int attempt = 0;; ++attempt) {
    int rc = 0;
    {
      ReadScope scope(gate_, this, nested);
      MDB_txn* txn = nullptr;
      rc = mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn);
      if (rc == 0) {
        TxnAborter aborter{txn};
        lmdb::LmdbReadTxn view(txn, max_key_size_);
        core::Status status = fn(view);
        if (view.ops().failure()) return *view.ops().failure();
        return status;
      }
    }
    // Another process grew the map: adopt its size (outside the gate) and try once more.
    if (rc == MDB_MAP_RESIZED && !nested && attempt == 0 && adopt_map_size() == 0) continue;
    return storage_error(rc, "begin read transaction");
  }
}

core::Status LmdbStore::write(const std::function<core::Status(WriteTxn&)>& fn) {
  if (t_role.writer_of == this || inside_read_here()) return nested_transaction_error();
  WriteRequest request(fn);
  if (!queue_.submit_and_wait(request)) return core::make_error("storage_error", "the store is closing");
  if (request.exception) std::rethrow_exception(request.exception);
  return request.result;
}

LmdbStats LmdbStore::stats() const {
  LmdbStats s;
  s.write_requests = write_requests_.load();
  s.commits = commits_.load();
  s.syncs = syncs_.load();
  s.largest_group = largest_group_.load();
  s.map_resizes = map_resizes_.load();
  s.reruns = reruns_.load();
  s.queued = queue_.queued();
  s.map_size = map_size_.load();
  return s;
}

unsigned LmdbStore::env_flags() const {
  unsigned flags = 0;
  mdb_env_get_flags(env_, &flags);
  return flags;
}

std::size_t LmdbStore::current_map_size() const {
  MDB_envinfo info;
  mdb_env_info(env_, &info);
  return info.me_mapsize;
}

int LmdbStore::adopt_map_size_locked() {
  return mdb_env_set_mapsize(env_, 0);
}

int LmdbStore::adopt_map_size() {
  ExclusiveGate exclusive(gate_);
  std::lock_guard txn_lock(write_txn_mutex_);
  return adopt_map_size_locked();
}

core::Status LmdbStore::grow_map_locked() {
  const std::size_t current = current_map_size();
  if (current >= options_.max_map_size) {
    return core::make_error("storage_error", "the store is full: the map reached its maximum of " +
                                                 std::to_string(options_.max_map_size) + " bytes");
  }
  const std::size_t next = current > options_.max_map_size / 2 ? options_.max_map_size : current * 2;
  if (const int rc = mdb_env_set_mapsize(env_, next); rc != 0) {
    return storage_error(rc, "grow map to " + std::to_string(next) + " bytes");
  }
  map_size_ = next;
  ++map_resizes_;
  return {};
}

core::Status LmdbStore::grow_map() {
  ExclusiveGate exclusive(gate_);
  std::lock_guard txn_lock(write_txn_mutex_);
  return grow_map_locked();
}

void LmdbStore::writer_loop() {
  t_role.writer_of = this;
  std::vector<WriteRequest*> batch;
  batch.reserve(options_.max_batch);
  for (;;) {
    // Nothing queued to carry the last commit's meta page to the disk with its fdatasync: flush it now.
    if (!unsynced_.empty() && queue_.queued() == 0) sync_and_answer();
    if (!queue_.take(batch, options_.max_batch)) break;
    write_requests_ += batch.size();
    apply(batch);
    batch.clear();
  }
  sync_and_answer();
}

void LmdbStore::sync_and_answer() {
  if (unsynced_.empty()) return;
  int rc = 0;
  {
    std::lock_guard txn_lock(write_txn_mutex_);
    rc = mdb_env_sync(env_, 1);
  }
  if (rc != 0) {
    // Whether the meta page reached the disk is unknown, and Linux forgets a failed flush's pages: refuse
    // every later write rather than acknowledge on a disk that lied once.
    const core::Error error = storage_error(rc, "flush");
    stop_writes(error);
    for (WriteRequest* r : unsynced_) r->result = error;
  } else {
    ++syncs_;
  }
  answer_unsynced();
}

void LmdbStore::answer_unsynced() {
  queue_.finish(unsynced_);
  unsynced_.clear();
}

void LmdbStore::stop_writes(const core::Error& error) {
  std::lock_guard lock(health_mutex_);
  if (!failure_) failure_ = error;
}

std::uint64_t LmdbStore::version() {
  const bool nested = inside_read_here() || t_role.writer_of == this;
  ReadScope scope(gate_, this, nested);
  MDB_envinfo info{};
  mdb_env_info(env_, &info);
  return static_cast<std::uint64_t>(info.me_last_txnid);
}

core::Status LmdbStore::health() const {
  std::lock_guard lock(health_mutex_);
  if (failure_) return *failure_;
  return {};
}

LmdbStore::Outcome LmdbStore::run_child(MDB_txn* parent, WriteRequest& request) {
  MDB_txn* child = nullptr;
  if (const int rc = mdb_txn_begin(env_, parent, 0, &child); rc != 0) {
    request.result = storage_error(rc, "begin nested transaction");
    return Outcome::kRolledBack;
  }
  lmdb::LmdbWriteTxn txn(child, max_key_size_);
  core::Status status;
  request.exception = nullptr;
  try {
    status = request.fn(txn);
  } catch (...) {
    mdb_txn_abort(child);
    request.exception = std::current_exception();
    request.result = core::make_error("storage_error", "the write callback threw");
    return Outcome::kRolledBack;
  }
  const lmdb::TxnOps& ops = txn.ops();
  if (ops.failure() || !status.ok()) {
    mdb_txn_abort(child);
    if (ops.failure_rc() == MDB_MAP_FULL) return Outcome::kNeedsRoom;
    if (ops.failure_rc() == MDB_TXN_FULL) return Outcome::kTooLarge;
    request.result = ops.failure() ? core::Status(*ops.failure()) : status;
    return Outcome::kRolledBack;
  }
  // A failed commit frees the child too.
  const int rc = mdb_txn_commit(child);
  if (rc == 0) {
    request.result = {};
    return Outcome::kApplied;
  }
  if (rc == MDB_MAP_FULL) return Outcome::kNeedsRoom;
  if (rc == MDB_TXN_FULL) return Outcome::kTooLarge;
  request.result = storage_error(rc, "commit nested transaction");
  return Outcome::kParentLost;
}

// One pass applies a prefix of `requests` under one parent transaction: the whole rest, unless a request
// does not fit (map full, too many dirty pages), which cuts the group before it. The prefix is committed
// once and only then answered; the next pass continues with the rest. If the commit itself runs out of
// map, the map grows and the prefix is applied again from scratch (its fns run again).
void LmdbStore::apply(std::vector<WriteRequest*>& requests) {
  std::size_t done = 0;  // requests[0, done) are finished
  std::vector<bool> applied(requests.size());
  auto finish = [&](std::size_t from, std::size_t to) {
    queue_.finish(std::span<WriteRequest* const>(requests.data() + from, to - from));
    done = to;
  };
  auto fail = [&](std::size_t from, std::size_t to, const core::Error& error) {
    for (std::size_t i = from; i < to; ++i) requests[i]->result = error;
    finish(from, to);
  };
  // A committed group (its failed requests too: they may have decided on what the group before them wrote)
  // is answered once its meta page is on the disk.
  auto hold = [&](std::size_t from, std::size_t to) {
    unsynced_.insert(unsynced_.end(), requests.begin() + static_cast<std::ptrdiff_t>(from),
                     requests.begin() + static_cast<std::ptrdiff_t>(to));
    done = to;
  };

  if (core::Status stopped = health(); !stopped.ok()) return fail(0, requests.size(), stopped.error());

  while (done < requests.size()) {
    std::unique_lock txn_lock(write_txn_mutex_);
    MDB_txn* parent = nullptr;
    int rc = mdb_txn_begin(env_, nullptr, 0, &parent);
    if (rc == MDB_MAP_RESIZED) {
      txn_lock.unlock();
      rc = adopt_map_size();
      if (rc == 0) continue;
    }
    if (rc != 0) return fail(done, requests.size(), storage_error(rc, "begin write transaction"));

    std::size_t end = done;
    Outcome cut = Outcome::kApplied;
    for (; end < requests.size(); ++end) {
      const Outcome outcome = run_child(parent, *requests[end]);
      applied[end] = outcome == Outcome::kApplied;
      if (outcome != Outcome::kApplied && outcome != Outcome::kRolledBack) {
        cut = outcome;
        break;
      }
    }

    if (cut == Outcome::kParentLost) {
      mdb_txn_abort(parent);
      reruns_ += end - done;
      // Answer the request that broke the parent first, then apply the ones before it again.
      std::rotate(requests.begin() + static_cast<std::ptrdiff_t>(done),
                  requests.begin() + static_cast<std::ptrdiff_t>(end),
                  requests.begin() + static_cast<std::ptrdiff_t>(end) + 1);
      finish(done, done + 1);
      continue;
    }
    if (end == done) {  // the first request does not fit even alone
      mdb_txn_abort(parent);
      txn_lock.unlock();
      if (cut == Outcome::kNeedsRoom) {
        ++reruns_;
        if (core::Status grown = grow_map(); !grown.ok()) fail(done, done + 1, grown.error());
      } else {
        fail(done, done + 1,
             core::make_error("storage_error", "the write is too large for one transaction (MDB_TXN_FULL)"));
      }
      continue;
    }

    rc = mdb_txn_commit(parent);
    txn_lock.unlock();
    if (rc == MDB_MAP_FULL) {
      reruns_ += end - done;
      if (core::Status grown = grow_map(); !grown.ok()) fail(done, end, grown.error());
      continue;
    }
    if (rc != 0) {
      // Nothing of the group was kept, and the disk may have failed under the previous commit's meta page
      // too: answer both with the error and take no more writes. Requests whose fn failed keep their own.
      const core::Error error = storage_error(rc, "commit");
      stop_writes(error);
      for (std::size_t i = done; i < end; ++i) {
        if (applied[i]) requests[i]->result = error;
      }
      for (WriteRequest* r : unsynced_) r->result = error;
      answer_unsynced();
      finish(done, end);
      fail(end, requests.size(), error);
      return;
    }
    ++commits_;
    // Its fdatasync carried the previous commit's meta page to the disk.
    std::uint64_t group = end - done;
    std::uint64_t largest = largest_group_.load();
    while (group > largest && !largest_group_.compare_exchange_weak(largest, group)) {
    }
    answer_unsynced();
    hold(done, end);
    // The next pass starts with the request that did not fit. If it ran out of map, grow now; should growing
    // fail, that pass finds the map still full and fails the request alone.
    if (cut == Outcome::kNeedsRoom) {
      ++reruns_;
      (void)grow_map();
    }
  }
}

}  // namespace store
