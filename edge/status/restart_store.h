#pragma once
// Restart targets and their firings in the `status` table (docs/status-restart.md, "Storage"):
//
//   c/<companyId>/restart/<pageId>/<targetId>   the target {id, pageId, checkId, name, type, threshold,
//                                               cooldownSeconds, settings (no secrets), sealed {member:
//                                               AES-256-GCM text}, createdAt, updatedAt}
//   restart-by-check/<checkId>/<targetId>       {companyId, pageId}: the targets bound to a check, read by
//                                               the verdict hook inside the result's transaction
//   restart-state/<targetId>                    {consecutiveFailures, lastFiredAtMs}: the target's
//                                               core::status::RestartState
//   fire/<checkId>/<atMs, 13 digits>/<firingId> one firing and its outcome: the check's restart history
//   fire-pending/<checkId>/<firingId>           {key}: a firing without an outcome yet, found again after a
//                                               crash (edge/status/restart_history.h)
//
// A target is always bound to a check of its page, so removing a check's data (erase_restart_data, called
// by status_store.cpp for delete_check, delete_component and delete_page) removes every target bound to it,
// their states, the check's history and its pending firings: nothing is left dangling.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "core/status/restart.h"
#include "native/store/kv_store.h"

namespace edge::status {

namespace json = core::json;

std::string restart_prefix(std::string_view company_id, std::string_view page_id);
std::string restart_key(std::string_view company_id, std::string_view page_id, std::string_view target_id);
std::string restart_check_prefix(std::string_view check_id);
std::string restart_index_key(std::string_view check_id, std::string_view target_id);
std::string restart_state_key(std::string_view target_id);
std::string firing_prefix(std::string_view check_id);
std::string firing_key(std::string_view check_id, std::int64_t at_ms, std::string_view firing_id);
std::string pending_firing_prefix(std::string_view check_id);
std::string pending_firing_key(std::string_view check_id, std::string_view firing_id);

// The stored target's threshold and cooldown.
core::status::RestartBinding binding_of(const json::object& target);
json::object to_json(const core::status::RestartState& state);
core::status::RestartState restart_state_of(const json::object& stored);

// Stores the target under its key and binds it to its `checkId` (index entry; a fresh state when the
// check changed from `previous_check_id`).
void put_target(store::WriteTxn& txn, store::Table t, std::string_view company_id, const json::object& target,
                std::string_view previous_check_id);
// Removes a target, its index entry and its state. Its firings stay in the check's history.
void erase_target(store::WriteTxn& txn, store::Table t, std::string_view company_id,
                  const json::object& target);

// Removes everything of restart targets that hangs on `check_id`: its targets (records, index, states), its
// firing history and its pending firings. For status_store.cpp's check deletion.
void erase_restart_data(store::WriteTxn& txn, store::Table t, std::string_view check_id);

}  // namespace edge::status
