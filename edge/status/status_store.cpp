#include "edge/status/status_store.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <deque>

#include "core/date.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/incident_store.h"
#include "edge/status/maintenance_store.h"
#include "edge/status/page_events.h"
#include "edge/status/restart_store.h"
#include "edge/status/rollup.h"
#include "edge/status/subscribers.h"
#include "edge/status/verdict_hooks.h"

namespace edge::status {
namespace {

std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

std::optional<json::object> parse_object(std::string_view text) {
  auto v = core::parse_json_object(text);
  if (!v) return std::nullopt;
  return std::move(*v);
}

// Erases every key under `prefix`.
void erase_prefix(store::WriteTxn& txn, store::Table t, std::string_view prefix) {
  std::vector<std::string> keys;
  txn.scan(t, prefix, [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  for (auto& k : keys) txn.erase(t, k);
}

// Removes a check's records outside its settings: index, results, summary, and the restart targets bound
// to it with the check's firing history (edge/status/restart_store.h).
void erase_check_data(store::WriteTxn& txn, store::Table t, std::string_view check_id) {
  txn.erase(t, check_index_key(check_id));
  txn.erase(t, summary_key(check_id));
  txn.erase(t, auto_state_key(check_id));
  erase_prefix(txn, t, result_prefix(check_id));
  erase_restart_data(txn, t, check_id);
  erase_rollups(txn, t, check_id);
}

// Removes the checks under `prefix` (a component's or a page's) with their data.
void erase_checks(store::WriteTxn& txn, store::Table t, std::string_view prefix) {
  std::vector<std::string> ids;
  txn.scan(t, prefix, [&](std::string_view, std::string_view value) {
    if (auto o = parse_object(value)) ids.push_back(record::str(*o, "id"));
    return true;
  });
  for (auto& id : ids)
    if (!id.empty()) erase_check_data(txn, t, id);
  erase_prefix(txn, t, prefix);
}

}  // namespace

std::string page_key(std::string_view company_id, std::string_view page_id) {
  return cat({"c/", company_id, "/page/", page_id});
}
std::string slug_key(std::string_view slug) {
  return cat({"slug/", slug});
}
std::string component_prefix(std::string_view company_id, std::string_view page_id) {
  return cat({"c/", company_id, "/component/", page_id, "/"});
}
std::string component_key(std::string_view company_id, std::string_view page_id,
                          std::string_view component_id) {
  return component_prefix(company_id, page_id) + std::string(component_id);
}
std::string check_prefix(std::string_view company_id, std::string_view page_id,
                         std::string_view component_id) {
  return cat({"c/", company_id, "/check/", page_id, "/", component_id, "/"});
}
std::string check_key(std::string_view company_id, std::string_view page_id, std::string_view component_id,
                      std::string_view check_id) {
  return check_prefix(company_id, page_id, component_id) + std::string(check_id);
}
std::string check_index_key(std::string_view check_id) {
  return cat({"check/", check_id});
}
std::string result_prefix(std::string_view check_id) {
  return cat({"r/", check_id, "/"});
}
std::string result_key(std::string_view check_id, std::int64_t at_ms) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%013lld", static_cast<long long>(at_ms < 0 ? 0 : at_ms));
  return result_prefix(check_id) + digits;
}
std::string summary_key(std::string_view check_id) {
  return cat({"sum/", check_id});
}

core::Result<std::optional<json::object>> get_record(App& app, const std::string& key) {
  return record::read_object(*app.kv, app.status_table, key);
}

core::Result<std::vector<json::object>> list_records(App& app, const std::string& prefix) {
  return record::read_objects(*app.kv, app.status_table, prefix);
}

core::Status insert_record(App& app, const std::string& key, const json::object& rec) {
  store::Table t = app.status_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    record::put_object(txn, t, key, rec);
    return {};
  });
}

core::Status update_record(App& app, const std::string& key, std::string_view not_found_code,
                           const std::function<core::Status(json::object&, store::WriteTxn&)>& modify,
                           json::object& out) {
  store::Table t = app.status_table;
  std::string code(not_found_code);
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto rec = record::get_object(txn, t, key);
    if (!rec) return core::make_error(code, "not found");
    CORE_TRY(modify(*rec, txn));
    record::put_object(txn, t, key, *rec);
    out = std::move(*rec);
    return {};
  });
}

core::Status create_page(App& app, std::string_view company_id, const json::object& page) {
  store::Table t = app.status_table;
  std::string slug = record::str(page, "slug"), id = record::str(page, "id");
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (txn.get(t, slug_key(slug)))
      return core::make_error("slug_taken", "the slug '" + slug + "' is already in use");
    record::put_object(txn, t, slug_key(slug), json::object{{"companyId", company_id}, {"pageId", id}});
    record::put_object(txn, t, page_key(company_id, id), page);
    return {};
  });
}

core::Status update_page(App& app, std::string_view company_id, std::string_view page_id,
                         const std::function<core::Status(json::object&)>& modify, json::object& out) {
  return update_record(
      app, page_key(company_id, page_id), "page_not_found",
      [&](json::object& page, store::WriteTxn& txn) -> core::Status {
        std::string old_slug = record::str(page, "slug");
        CORE_TRY(modify(page));
        std::string slug = record::str(page, "slug");
        if (slug == old_slug) return {};
        store::Table t = app.status_table;
        if (txn.get(t, slug_key(slug)))
          return core::make_error("slug_taken", "the slug '" + slug + "' is already in use");
        txn.erase(t, slug_key(old_slug));
        record::put_object(txn, t, slug_key(slug),
                           json::object{{"companyId", company_id}, {"pageId", page_id}});
        return {};
      },
      out);
}

core::Status delete_page(App& app, std::string_view company_id, std::string_view page_id) {
  store::Table t = app.status_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    auto page = record::get_object(txn, t, page_key(company_id, page_id));
    if (!page) return core::make_error("page_not_found", "page not found");
    txn.erase(t, slug_key(record::str(*page, "slug")));
    erase_checks(txn, t, cat({"c/", company_id, "/check/", page_id, "/"}));
    erase_prefix(txn, t, component_prefix(company_id, page_id));
    erase_page_incidents(txn, t, company_id, page_id);
    erase_page_maintenances(txn, t, company_id, page_id);
    erase_page_subscribers(txn, t, company_id, page_id);
    txn.erase(t, page_key(company_id, page_id));
    return {};
  });
}

core::Result<PublicPage> page_by_slug(App& app, std::string_view slug) {
  PublicPage out;
  store::Table t = app.status_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    auto index = record::get_object(txn, t, slug_key(slug));
    if (!index) return core::make_error("page_not_found", "no status page has this slug");
    out.companyId = record::str(*index, "companyId");
    auto page = record::get_object(txn, t, page_key(out.companyId, record::str(*index, "pageId")));
    if (!page) return core::make_error("page_not_found", "no status page has this slug");
    out.page = std::move(*page);
    return {};
  });
  if (!st.ok()) return st.error();
  return out;
}

core::Status create_check(App& app, std::string_view company_id, std::string_view page_id,
                          const json::object& check) {
  store::Table t = app.status_table;
  std::string id = record::str(check, "id"), component_id = record::str(check, "componentId");
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    // The component may have been deleted since the route looked it up.
    if (!txn.get(t, component_key(company_id, page_id, component_id)))
      return core::make_error("component_not_found", "component not found");
    record::put_object(txn, t, check_key(company_id, page_id, component_id, id), check);
    record::put_object(
        txn, t, check_index_key(id),
        json::object{{"companyId", company_id}, {"pageId", page_id}, {"componentId", component_id}});
    return {};
  });
}

core::Status delete_check(App& app, std::string_view company_id, std::string_view page_id,
                          std::string_view component_id, std::string_view check_id) {
  store::Table t = app.status_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(t, check_key(company_id, page_id, component_id, check_id)))
      return core::make_error("check_not_found", "check not found");
    erase_check_data(txn, t, check_id);
    return {};
  });
}

core::Status delete_component(App& app, std::string_view company_id, std::string_view page_id,
                              std::string_view component_id) {
  store::Table t = app.status_table;
  return app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    if (!txn.erase(t, component_key(company_id, page_id, component_id)))
      return core::make_error("component_not_found", "component not found");
    erase_checks(txn, t, check_prefix(company_id, page_id, component_id));
    return {};
  });
}

json::object to_json(const CheckResult& result) {
  json::object out{
      {"at", result.atMs},
      {"status", core::status::wire_name(result.status)},
      {"reason", core::status::wire_name(result.reason)},
      {"latencyMs", result.latencyMs},
      {"httpStatus", result.httpStatus ? json::value(*result.httpStatus) : json::value(nullptr)}};
  // Overload, shown where it happened (docs/status-probes.md): only when there was any.
  if (result.lateMs > 0) out["lateMs"] = result.lateMs;
  if (result.skippedRuns > 0) out["skippedRuns"] = result.skippedRuns;
  return out;
}

json::object result_view(const json::object& stored) {
  json::object out = stored;
  out["at"] = core::format_timestamp(record::num(stored, "at"));
  out.erase("coverMs");  // internal: how long the result vouches for its check
  return out;
}

core::Status append_check_result(App& app, std::string_view check_id, const CheckResult& result) {
  store::Table t = app.status_table;
  AfterCommit after;
  bool status_changed = false;
  std::string company_id, page_id;
  auto st = app.kv->write([&](store::WriteTxn& txn) -> core::Status {
    after.clear();
    status_changed = false;
    auto where = record::get_object(txn, t, check_index_key(check_id));
    if (!where) return core::make_error("check_not_found", "check not found");
    company_id = record::str(*where, "companyId");
    page_id = record::str(*where, "pageId");
    std::string component_id = record::str(*where, "componentId");
    auto check = record::get_object(txn, t, check_key(company_id, page_id, component_id, check_id));
    if (!check) return core::make_error("check_not_found", "check not found");
    // How long this result vouches for the check (honest uptime), fixed when it is recorded.
    const std::int64_t cover = check_cover_ms(*check);
    json::object stored = to_json(result);
    stored["coverMs"] = cover;
    record::put_object(txn, t, result_key(check_id, result.atMs), stored);
    json::object summary = record::get_object(txn, t, summary_key(check_id)).value_or(json::object{});
    if (!summary.empty() && record::num(summary, "lastCheckedAtMs") > result.atMs) return {};
    // The time since the previous result becomes final: into the per-day rollups, same transaction.
    roll_up(txn, t, check_id, summary, core::status::Observation{result.atMs, result.status, cover}, cover);
    std::string previous = summary.empty() ? std::string("no-data") : record::str(summary, "status");
    const bool down = result.status == core::status::ProbeStatus::down;
    summary["status"] = core::status::wire_name(result.status);
    summary["reason"] = core::status::wire_name(result.reason);
    summary["lastLatencyMs"] = result.latencyMs;
    summary["lastCheckedAtMs"] = result.atMs;
    summary["lastCheckedAt"] = core::format_timestamp(result.atMs);
    summary["consecutiveFailures"] = down ? record::num(summary, "consecutiveFailures") + 1 : 0;
    record::put_object(txn, t, summary_key(check_id), summary);
    status_changed = previous != core::status::wire_name(result.status);
    Verdict verdict{company_id, page_id, component_id, check_id, result, previous};
    auto_incidents_on_verdict(app, txn, verdict, after);
    restart_targets_on_verdict(app, txn, verdict, after);
    return {};
  });
  if (!st.ok()) return st;
  if (status_changed) page_changed(app, company_id, page_id);
  for (auto& step : after) step();
  return {};
}

core::Result<std::optional<json::object>> check_summary(App& app, std::string_view check_id) {
  return get_record(app, summary_key(check_id));
}

core::Result<std::vector<json::object>> check_results(App& app, std::string_view check_id,
                                                      std::int64_t since_ms, std::size_t limit) {
  std::deque<json::object> kept;
  store::Table t = app.status_table;
  std::string prefix = result_prefix(check_id);
  std::string start = since_ms > 0 ? result_key(check_id, since_ms) : std::string();
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    kept.clear();
    txn.scan(
        t, prefix,
        [&](std::string_view, std::string_view value) {
          if (auto o = parse_object(value)) {
            kept.push_back(std::move(*o));
            if (limit > 0 && kept.size() > limit) kept.pop_front();
          }
          return true;
        },
        start);
    return {};
  });
  if (!st.ok()) return st.error();
  return std::vector<json::object>(std::make_move_iterator(kept.begin()),
                                   std::make_move_iterator(kept.end()));
}

namespace {
// A stored integer as the core's int: out-of-range values saturate, so validation still refuses them.
int clamp_int(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX));
}
}  // namespace

core::status::CheckSettings check_settings_of(const json::object& check) {
  core::status::CheckSettings s;
  s.method = record::str(check, "method");
  s.intervalSeconds = clamp_int(record::num(check, "intervalSeconds"));
  s.expectedStatusMin = clamp_int(record::num(check, "expectedStatusMin"));
  s.expectedStatusMax = clamp_int(record::num(check, "expectedStatusMax"));
  if (auto* b = check.if_contains("expectedBodyContains"); b && b->is_string())
    s.expectedBodyContains = std::string(b->get_string());
  s.timeoutMs = clamp_int(record::num(check, "timeoutMs"));
  s.degradedLatencyMs = clamp_int(record::num(check, "degradedLatencyMs"));
  return s;
}

}  // namespace edge::status
