#pragma once
// Status-page records in the `status` table (docs/status-api.md, "Storage"). Values are JSON objects.
//
//   c/<companyId>/page/<pageId>                                 Page, as the dashboard shows it
//   slug/<slug>                                                 {companyId, pageId}: page slugs are public
//   and
//                                                               unique across the platform (409 slug_taken)
//   c/<companyId>/component/<pageId>/<componentId>              Component (name, order)
//   c/<companyId>/check/<pageId>/<componentId>/<checkId>        HTTP check settings
//   check/<checkId>                                             {companyId, pageId, componentId}: where a
//                                                               check lives, for the probe worker (scan
//                                                               `check/` to find every check)
//   r/<checkId>/<atMs, 13 digits zero-padded>                   one probe result {at, status, reason,
//                                                               latencyMs, httpStatus}; the fixed width makes
//                                                               key order time order
//   sum/<checkId>                                               the check's latest state {status,
//                                                               lastLatencyMs, lastCheckedAt,
//                                                               consecutiveFailures, firstCheckedAtMs,
//                                                               lastCoverMs, rollupFromMs}
//   ru/<checkId>/<YYYY-MM-DD>                                   the check's time that UTC day
//                                                               (edge/status/rollup.h)
//   c/<companyId>/incident/<pageId>/<incidentId>                incident with its updates
//                                                               (edge/status/incident_store.h)
//   c/<companyId>/autoincident/<pageId>/<componentId>           {incidentId, checkIds}: the component's
//                                                               open automatic incident and the checks
//                                                               holding it open
//   ai/<checkId>                                                the check's core AutoIncidentState; absent
//                                                               when it is the initial one
//   c/<companyId>/maintenance/<pageId>/<windowId>               maintenance window
//                                                               (edge/status/maintenance_store.h)
//   mnt/<windowId>                                              {companyId, pageId} while the window owes
//                                                               a notification (the maintenance ticker's
//                                                               work list)
//   c/<companyId>/restart/<pageId>/<targetId>, restart-by-check/<checkId>/<targetId>,
//   restart-state/<targetId>, fire/<checkId>/<atMs>/<firingId>, fire-pending/<checkId>/<firingId>
//                                                               restart targets, their state and the
//                                                               check's firing history
//                                                               (edge/status/restart_store.h); removed
//                                                               with the check
//   c/<companyId>/subscriber/<pageId>/<subscriberId>, c/<companyId>/subdelivery/..., subtoken/...,
//   subconfirm/..., sdq/...                                     subscribers, their delivery logs, token
//                                                               indexes and the delivery queue
//                                                               (edge/status/subscribers.h)
//   ev/<atMs>/<eventId>                                         the notification outbox
//                                                               (edge/status/status_events.h)
//
// Every company-owned key starts with c/<companyId>/, so an id of another company is simply not found
// (404, never 403). Deleting a page or a component removes everything beneath it in one transaction.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "core/status/probe.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

std::string page_key(std::string_view company_id, std::string_view page_id);
std::string slug_key(std::string_view slug);
std::string component_prefix(std::string_view company_id, std::string_view page_id);
std::string component_key(std::string_view company_id, std::string_view page_id,
                          std::string_view component_id);
std::string check_prefix(std::string_view company_id, std::string_view page_id,
                         std::string_view component_id);
std::string check_key(std::string_view company_id, std::string_view page_id, std::string_view component_id,
                      std::string_view check_id);
std::string check_index_key(std::string_view check_id);
std::string result_prefix(std::string_view check_id);
std::string result_key(std::string_view check_id, std::int64_t at_ms);
std::string summary_key(std::string_view check_id);

// Whether `id` can be one key segment: non-empty, no '/'. Anything else names no record.
inline bool is_key_segment(std::string_view id) {
  return !id.empty() && id.find('/') == std::string_view::npos;
}

core::Result<std::optional<json::object>> get_record(App& app, const std::string& key);
// Every record whose key starts with `prefix`, in key order.
core::Result<std::vector<json::object>> list_records(App& app, const std::string& prefix);
// Stores `rec` under `key` (ids are fresh random ones, so nothing is overwritten).
core::Status insert_record(App& app, const std::string& key, const json::object& rec);
// Reads the record under `key` in a write transaction, lets `modify` change it (it may run more than once:
// it must only touch the object and the transaction) and stores it. `not_found_code` when absent.
core::Status update_record(App& app, const std::string& key, std::string_view not_found_code,
                           const std::function<core::Status(json::object&, store::WriteTxn&)>& modify,
                           json::object& out);

// Pages. create_page stores the page and its slug index together (`slug_taken` when the slug is anyone's).
// update_page moves the slug index when `slug` changed (`slug_taken` likewise). delete_page removes the
// page, its slug, components, checks, their results and summaries (`page_not_found`).
core::Status create_page(App& app, std::string_view company_id, const json::object& page);
core::Status update_page(App& app, std::string_view company_id, std::string_view page_id,
                         const std::function<core::Status(json::object&)>& modify, json::object& out);
core::Status delete_page(App& app, std::string_view company_id, std::string_view page_id);
// The page a public slug names: {companyId, page}; `page_not_found`.
struct PublicPage {
  std::string companyId;
  json::object page;
};
core::Result<PublicPage> page_by_slug(App& app, std::string_view slug);

// Checks: create_check stores the check and its index; delete_check and delete_component remove the
// check(s) with results and summaries.
core::Status create_check(App& app, std::string_view company_id, std::string_view page_id,
                          const json::object& check);
core::Status delete_check(App& app, std::string_view company_id, std::string_view page_id,
                          std::string_view component_id, std::string_view check_id);
core::Status delete_component(App& app, std::string_view company_id, std::string_view page_id,
                              std::string_view component_id);

// A stored check's settings as the core's CheckSettings (out-of-range integers saturate, so validation still
// refuses them).
core::status::CheckSettings check_settings_of(const json::object& check);

// One probe result, as the probe worker records it. Stored as {at (Unix ms), status, reason, latencyMs,
// httpStatus (null without a response), lateMs and skippedRuns when > 0, coverMs (how long it vouches for
// the check: edge/status/rollup.h; not shown by result_view)}.
struct CheckResult {
  std::int64_t atMs = 0;
  core::status::ProbeStatus status = core::status::ProbeStatus::operational;
  core::status::ProbeReason reason = core::status::ProbeReason::ok;
  std::int64_t latencyMs = 0;
  std::optional<int> httpStatus;  // none when no response arrived (timeout, transport error)
  // Overload of the probe worker (docs/status-probes.md): how late this probe started after it was due,
  // and how many runs before it the scheduler skipped. Stored only when > 0.
  std::int64_t lateMs = 0;
  std::int64_t skippedRuns = 0;
};
json::object to_json(const CheckResult& result);
// A stored result as the API shows it: `at` as an ISO 8601 timestamp.
json::object result_view(const json::object& stored);

// Appends a result durably and updates the check's summary in the same transaction: status, lastLatencyMs
// and lastCheckedAt follow the newest result (an older one arriving late is kept but changes nothing);
// consecutiveFailures counts down results in a row; the time since the previous result goes into the
// per-day rollups (edge/status/rollup.h). For the newest result the verdict hooks run in the same
// transaction (edge/status/verdict_hooks.h) and their after-commit work follows the commit; a change of the
// check's status calls page_changed. `check_not_found` when the check is gone.
core::Status append_check_result(App& app, std::string_view check_id, const CheckResult& result);

// The check's summary record, nullopt before its first result.
core::Result<std::optional<json::object>> check_summary(App& app, std::string_view check_id);
// Results of a check with at > since_ms, oldest first, at most `limit` newest ones when limit > 0.
core::Result<std::vector<json::object>> check_results(App& app, std::string_view check_id,
                                                      std::int64_t since_ms, std::size_t limit = 0);

}  // namespace edge::status
