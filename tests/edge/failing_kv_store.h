#pragma once
// A KvStore over another that can be switched into an outage: while `failing` is set, every read() and
// write() answers `storage_error` without running its function, as LMDB does when the disk fails, except
// the next `spared` calls (to let a request's first steps through and fail a later one).

#include <atomic>

#include "native/store/kv_store.h"

namespace testing {

class FailingKvStore : public store::KvStore {
 public:
  explicit FailingKvStore(store::KvStore& inner) : inner_(inner) {}

  std::atomic<bool> failing{false};
  std::atomic<int> spared{0};

  core::Result<store::Table> open_table(std::string_view name) override { return inner_.open_table(name); }
  core::Status read(const std::function<core::Status(const store::ReadTxn&)>& fn) override {
    if (fails()) return core::make_error("storage_error", "injected outage");
    return inner_.read(fn);
  }
  core::Status write(const std::function<core::Status(store::WriteTxn&)>& fn) override {
    if (fails()) return core::make_error("storage_error", "injected outage");
    return inner_.write(fn);
  }
  core::Status health() const override { return inner_.health(); }
  std::uint64_t version() override { return inner_.version(); }

 private:
  bool fails() { return failing && spared.fetch_sub(1) <= 0; }

  store::KvStore& inner_;
};

}  // namespace testing
