#include "edge/auth_projects/auth_sweep.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <vector>

#include "edge/app.h"
#include "edge/auth_projects/project_sessions.h"
#include "edge/platform/record_json.h"

namespace edge::auth_projects {
namespace {

constexpr std::size_t kTimeDigits = 16;

// The time of an index entry; nullopt for a key of another shape.
std::optional<std::int64_t> entry_time(std::string_view key) {
  key.remove_prefix(kAuthExpiryPrefix.size());
  if (key.size() <= kTimeDigits || key[kTimeDigits] != '/') return std::nullopt;
  std::int64_t at = 0;
  auto [end, ec] = std::from_chars(key.data(), key.data() + kTimeDigits, at);
  if (ec != std::errc() || end != key.data() + kTimeDigits) return std::nullopt;
  return at;
}

// `p/<pid>/<kind>/<rest>`, split; nullopt for a key of another shape.
struct RecordKey {
  std::string_view pid, kind, rest;
};
std::optional<RecordKey> split_record_key(std::string_view key) {
  if (key.substr(0, 2) != "p/") return std::nullopt;
  key.remove_prefix(2);
  RecordKey out;
  for (std::string_view* part : {&out.pid, &out.kind}) {
    auto slash = key.find('/');
    if (slash == std::string_view::npos || slash == 0) return std::nullopt;
    *part = key.substr(0, slash);
    key.remove_prefix(slash + 1);
  }
  if (key.empty()) return std::nullopt;
  out.rest = key;
  return out;
}

// Removes the record an entry names, if its time is before `cutoff_ms`.
void sweep_record_in(store::WriteTxn& txn, store::Table t, std::string_view record_key,
                     std::int64_t cutoff_ms) {
  auto k = split_record_key(record_key);
  if (!k) return;
  if (k->kind == "rt") {
    sweep_refresh_token_in(txn, t, k->pid, k->rest, cutoff_ms);
  } else if (k->kind == "s") {
    sweep_session_in(txn, t, k->pid, k->rest, cutoff_ms);
  } else if (k->kind == "lt" || k->kind == "tk" || k->kind == "slk") {
    // Self-contained records: nothing else points at them.
    auto rec = record::get_object(txn, t, record_key);
    if (rec && record::num(*rec, "expiresAt") < cutoff_ms) txn.erase(t, record_key);
  }
}

}  // namespace

std::string auth_expiry_key(std::int64_t at_ms, std::string_view record_key) {
  // Zero-padded so byte order is time order (times before 1970 do not occur).
  char digits[24];
  std::snprintf(digits, sizeof digits, "%016lld", static_cast<long long>(std::max<std::int64_t>(0, at_ms)));
  std::string key(kAuthExpiryPrefix);
  key.append(digits).append("/").append(record_key);
  return key;
}

core::Result<std::size_t> sweep_auth_records(App& app, std::size_t max_items) {
  const store::Table t = app.auth_table;
  const std::int64_t cutoff = app.clock.now_ms() - kAuthSweepGraceMs;
  std::size_t handled = 0;
  while (handled < max_items) {
    const std::size_t limit = std::min(kAuthSweepBatch, max_items - handled);
    std::size_t batch = 0;
    CORE_TRY(app.kv->write([&](store::WriteTxn& txn) -> core::Status {
      std::vector<std::string> entries;
      txn.scan(t, kAuthExpiryPrefix, [&](std::string_view key, std::string_view) {
        auto at = entry_time(key);
        if (at && *at >= cutoff) return false;  // sorted: the rest is later
        // Due, or malformed: either way the entry goes.
        entries.emplace_back(key);
        return entries.size() < limit;
      });
      for (const auto& entry : entries) {
        if (entry_time(entry))
          sweep_record_in(txn, t, std::string_view(entry).substr(kAuthExpiryPrefix.size() + kTimeDigits + 1),
                          cutoff);
        txn.erase(t, entry);
      }
      batch = entries.size();
      return {};
    }));
    handled += batch;
    if (batch < limit) break;
  }
  return handled;
}

}  // namespace edge::auth_projects
