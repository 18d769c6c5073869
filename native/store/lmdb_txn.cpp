#include "native/store/lmdb_txn.h"

#include <lmdb.h>

namespace store::lmdb {
namespace {

MDB_val as_val(std::string_view s) {
  return MDB_val{s.size(), const_cast<char*>(s.data())};
}
std::string_view as_view(const MDB_val& v) {
  return {static_cast<const char*>(v.mv_data), v.mv_size};
}

// Closes a cursor when the scan ends, also when fn throws.
struct CursorCloser {
  MDB_cursor* cursor;
  ~CursorCloser() { mdb_cursor_close(cursor); }
};

}  // namespace

core::Error storage_error(int rc, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += mdb_strerror(rc);
  return core::make_error("storage_error", std::move(message));
}

void TxnOps::fail(int rc, std::string_view what) const {
  if (failure_) return;
  failure_ = storage_error(rc, what);
  failure_rc_ = rc;
}

void TxnOps::reject(core::Error error) const {
  if (failure_) return;
  failure_ = std::move(error);
}

std::uint64_t TxnOps::id() const {
  return static_cast<std::uint64_t>(mdb_txn_id(txn_));
}

std::optional<std::string> TxnOps::get(Table t, std::string_view key) const {
  if (key.empty() || key.size() > max_key_size_) return std::nullopt;  // could never have been stored
  MDB_val k = as_val(key);
  MDB_val v;
  const int rc = mdb_get(txn_, t.id, &k, &v);
  if (rc == MDB_NOTFOUND) return std::nullopt;
  if (rc != 0) {
    fail(rc, "get");
    return std::nullopt;
  }
  return std::string(as_view(v));
}

void TxnOps::scan(Table t, std::string_view prefix,
                  const std::function<bool(std::string_view, std::string_view)>& fn,
                  std::string_view start_after) const {
  if (prefix.size() > max_key_size_) return;  // no stored key is that long
  MDB_cursor* cursor = nullptr;
  if (const int rc = mdb_cursor_open(txn_, t.id, &cursor); rc != 0) {
    fail(rc, "scan");
    return;
  }
  CursorCloser closer{cursor};

  // Position on the first key >= `from`. A `start_after` longer than any key is cut to the maximum: the
  // only stored key between the cut and the original is the cut itself, which is skipped like an exact match.
  std::string_view from = prefix;
  bool skip_from = false;
  if (!start_after.empty()) {
    const std::string_view cut = start_after.substr(0, max_key_size_);
    if (cut >= prefix) {  // std::string_view compares bytes as unsigned, like LMDB's default order
      from = cut;
      skip_from = true;
    }
  }
  MDB_val k = as_val(from);
  MDB_val v;
  int rc = from.empty() ? mdb_cursor_get(cursor, &k, &v, MDB_FIRST)
                        : mdb_cursor_get(cursor, &k, &v, MDB_SET_RANGE);
  if (rc == 0 && skip_from && as_view(k) == from) rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT);
  while (rc == 0) {
    const std::string_view key = as_view(k);
    if (!key.starts_with(prefix)) return;
    if (!fn(key, as_view(v))) return;
    rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT);
  }
  if (rc != MDB_NOTFOUND) fail(rc, "scan");
}

void TxnOps::put(Table t, std::string_view key, std::string_view value) {
  if (failure_) return;
  if (key.empty()) return reject(core::make_error("empty_key", "a key must not be empty"));
  if (key.size() > max_key_size_) {
    return reject(core::make_error("key_too_long", "key of " + std::to_string(key.size()) +
                                                       " bytes is longer than the store's maximum of " +
                                                       std::to_string(max_key_size_)));
  }
  MDB_val k = as_val(key);
  MDB_val v = as_val(value);
  if (const int rc = mdb_put(txn_, t.id, &k, &v, 0); rc != 0) fail(rc, "put");
}

bool TxnOps::erase(Table t, std::string_view key) {
  if (failure_) return false;
  if (key.empty() || key.size() > max_key_size_) return false;
  MDB_val k = as_val(key);
  const int rc = mdb_del(txn_, t.id, &k, nullptr);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != 0) {
    fail(rc, "erase");
    return false;
  }
  return true;
}

}  // namespace store::lmdb
