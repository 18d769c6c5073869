#include "edge/status/restart_store.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

#include "edge/platform/record_json.h"

namespace edge::status {
namespace {

std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

int clamp_int(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX));
}

void erase_prefix(store::WriteTxn& txn, store::Table t, std::string_view prefix) {
  std::vector<std::string> keys;
  txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  for (auto& k : keys) txn.erase(t, k);
}

}  // namespace

std::string restart_prefix(std::string_view company_id, std::string_view page_id) {
  return cat({"c/", company_id, "/restart/", page_id, "/"});
}
std::string restart_key(std::string_view company_id, std::string_view page_id, std::string_view target_id) {
  return restart_prefix(company_id, page_id) + std::string(target_id);
}
std::string restart_check_prefix(std::string_view check_id) {
  return cat({"restart-by-check/", check_id, "/"});
}
std::string restart_index_key(std::string_view check_id, std::string_view target_id) {
  return restart_check_prefix(check_id) + std::string(target_id);
}
std::string restart_state_key(std::string_view target_id) {
  return cat({"restart-state/", target_id});
}
std::string firing_prefix(std::string_view check_id) {
  return cat({"fire/", check_id, "/"});
}
std::string firing_key(std::string_view check_id, std::int64_t at_ms, std::string_view firing_id) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%013lld", static_cast<long long>(at_ms < 0 ? 0 : at_ms));
  return cat({firing_prefix(check_id), digits, "/", firing_id});
}
std::string pending_firing_prefix(std::string_view check_id) {
  return cat({"fire-pending/", check_id, "/"});
}
std::string pending_firing_key(std::string_view check_id, std::string_view firing_id) {
  return pending_firing_prefix(check_id) + std::string(firing_id);
}

core::status::RestartBinding binding_of(const json::object& target) {
  return {clamp_int(record::num(target, "threshold")), clamp_int(record::num(target, "cooldownSeconds"))};
}

json::object to_json(const core::status::RestartState& state) {
  json::object o{{"consecutiveFailures", state.consecutiveFailures}};
  o["lastFiredAtMs"] = state.lastFiredAtMs ? json::value(*state.lastFiredAtMs) : json::value(nullptr);
  return o;
}

core::status::RestartState restart_state_of(const json::object& stored) {
  core::status::RestartState s;
  s.consecutiveFailures = std::max(0, clamp_int(record::num(stored, "consecutiveFailures")));
  s.lastFiredAtMs = record::opt_num(stored, "lastFiredAtMs");
  return s;
}

void put_target(store::WriteTxn& txn, store::Table t, std::string_view company_id, const json::object& target,
                std::string_view previous_check_id) {
  const std::string id = record::str(target, "id"), page_id = record::str(target, "pageId");
  const std::string check_id = record::str(target, "checkId");
  record::put_object(txn, t, restart_key(company_id, page_id, id), target);
  if (check_id == previous_check_id) return;
  // Bound to another check: the failures counted for the old one say nothing about the new one.
  if (!previous_check_id.empty()) txn.erase(t, restart_index_key(previous_check_id, id));
  record::put_object(txn, t, restart_index_key(check_id, id),
                     json::object{{"companyId", company_id}, {"pageId", page_id}});
  record::put_object(txn, t, restart_state_key(id), to_json(core::status::RestartState{}));
}

void erase_target(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                  const json::object& target) {
  const std::string id = record::str(target, "id");
  txn.erase(t, restart_key(company_id, record::str(target, "pageId"), id));
  txn.erase(t, restart_index_key(record::str(target, "checkId"), id));
  txn.erase(t, restart_state_key(id));
}

void erase_restart_data(store::WriteTxn& txn, store::Table t, std::string_view check_id) {
  struct Bound {
    std::string targetId, companyId, pageId;
  };
  std::vector<Bound> bound;
  const std::string prefix = restart_check_prefix(check_id);
  txn.scan(t, prefix, [&](std::string_view key, std::string_view value) {
    auto where = core::parse_json_object(value);
    if (where)
      bound.push_back({std::string(key.substr(prefix.size())), record::str(*where, "companyId"),
                       record::str(*where, "pageId")});
    return true;
  });
  for (const Bound& b : bound) {
    txn.erase(t, restart_key(b.companyId, b.pageId, b.targetId));
    txn.erase(t, restart_state_key(b.targetId));
  }
  erase_prefix(txn, t, prefix);
  erase_prefix(txn, t, firing_prefix(check_id));
  erase_prefix(txn, t, pending_firing_prefix(check_id));
}

}  // namespace edge::status
