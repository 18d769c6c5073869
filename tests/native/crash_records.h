#pragma once
// The workload of the crash test, shared by the writer process and the checking parent.
//
// Record n lives under `rec/<n>` with a JSON value {"n":..,"v":..,"pad":"..","sum":".."}; `sum` is a
// checksum of n, v and pad, and `pad` (50 to 3000 bytes, some values spill onto LMDB overflow pages) is
// derived from n and v, so any torn or stale value is detectable. Its index entry `idx/<sum>/<n>` -> n is
// written in the same transaction. `meta/count` counts the records. Each write also bumps the version of an
// earlier record, moving its index entry, and every 50th write fails on purpose after writing.

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "native/store/kv_store.h"

namespace crash {

inline constexpr std::string_view kTableName = "crash";

// Writes that fail on purpose: their record must never be stored.
inline bool fails_on_purpose(std::uint64_t n) {
  return n % 50 == 7;
}

// The body of write() number n.
core::Status write_record(store::WriteTxn& txn, store::Table t, std::uint64_t n);

struct CheckResult {
  std::vector<std::string> problems;  // empty when everything agrees
  std::uint64_t records = 0;
  std::uint64_t next_n = 0;  // one past the highest record number present
};

// Checks that every acknowledged record is present and intact, that records and index entries match one to
// one, and that meta/count is right.
CheckResult check_store(const store::ReadTxn& txn, store::Table t,
                        const std::set<std::uint64_t>& acknowledged);

}  // namespace crash
