#pragma once
// SnapshotCache: values computed from the store by key, reused until any write commits.
//
// For hot read paths whose records rarely change and cost more to read and parse than the answer they
// feed (the CDN finds a media item and its bucket for every hit: docs/storage-cdn.md). Each value is kept
// with the version of the snapshot it was computed from (ReadTxn::version) and served only while the
// store's version (KvStore::version) is still that one, so a kept value is never older than a committed
// write: every commit, of any table and from any process, empties the cache. Negative answers (no such
// item) are values like any other; failures are never kept.
//
// Thread-safe: one mutex around the map, never held while the store is read. Holds at most `capacity`
// values and starts over when full, so a stream of unknown keys costs memory only up to that bound.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/result.h"
#include "native/store/kv_store.h"

namespace store {

template <class Value>
class SnapshotCache {
 public:
  SnapshotCache(KvStore& kv, std::size_t capacity) : kv_(kv), capacity_(capacity) {}

  // The value of `key`: the kept one when no write committed since it was computed, else
  // compute(txn, key) in a read() of the store, kept when it is ok. compute's error, or the store's, is
  // returned as is.
  template <class Compute>
  core::Result<Value> get(std::string_view key, Compute&& compute) {
    const std::uint64_t current = kv_.version();
    {
      std::lock_guard lock(mutex_);
      if (current > version_) {
        values_.clear();
        version_ = current;
      } else if (current == version_) {
        if (auto it = values_.find(key); it != values_.end()) {
          ++hits_;
          return it->second;
        }
      }
    }
    std::optional<core::Result<Value>> fresh;
    std::uint64_t snapshot = 0;
    core::Status read = kv_.read([&](const ReadTxn& txn) -> core::Status {
      snapshot = txn.version();
      fresh.emplace(compute(txn, key));
      return {};
    });
    if (!read.ok()) return read.error();
    if (fresh->ok()) {
      std::lock_guard lock(mutex_);
      // Kept only if it is of the newest version seen: a snapshot older than version_ (a commit published
      // meanwhile) may be stale already.
      if (snapshot == version_) {
        if (values_.size() >= capacity_) values_.clear();
        values_.insert_or_assign(std::string(key), fresh->value());
      }
    }
    return std::move(*fresh);
  }

  // How many get() calls were answered from the cache (for tests).
  std::uint64_t hits() const {
    std::lock_guard lock(mutex_);
    return hits_;
  }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  KvStore& kv_;
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::uint64_t version_ = 0;  // the newest KvStore::version seen
  std::uint64_t hits_ = 0;
  std::unordered_map<std::string, Value, Hash, std::equal_to<>> values_;
};

}  // namespace store
