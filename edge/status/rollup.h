#pragma once
// Per-check, per-UTC-day rollups of probe time (docs/status-rules.md, "Honest uptime"; issue 11), so a
// snapshot reads 90 small records per check instead of 90 days of results.
//
//   ru/<checkId>/<YYYY-MM-DD>   {operationalMs, degradedMs, downMs, unknownMs, results, downResults}
//
// A day's record holds the check's time that is final: each result, once the next one arrives, adds the
// spans between them (core::status::spans_between: its state up to its cover, then unknown), in the
// transaction that stores the next result (append_check_result). The time after the newest result (the
// open tail) is not in any record; readers add it from the summary. Maintenance is never applied to a
// rollup: windows change after the fact, so the days they touch are read exactly from the results.
//
// The check's summary carries firstCheckedAtMs (the first result ever: before it the check did not
// exist, which is not unknown time), lastCoverMs (how long the newest result vouches for) and
// rollupFromMs (rollups hold every result since). A check stored before rollups existed has no
// rollupFromMs: its next result rebuilds its rollups from the raw results once, and until then readers
// use the raw results.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "core/status/coverage.h"
#include "core/status/uptime.h"
#include "native/store/kv_store.h"

namespace edge {
struct App;
}

namespace edge::status {

namespace json = core::json;

std::string rollup_prefix(std::string_view check_id);
std::string rollup_key(std::string_view check_id, std::int64_t utc_day);

// The cover of a result of `check` (a stored check record) with its current settings.
std::int64_t check_cover_ms(const json::object& check);

// A stored result as an observation; nullopt for one that is not a verdict. `default_cover_ms` for
// results stored before results carried `coverMs`.
std::optional<core::status::Observation> observation_of(const json::object& result,
                                                        std::int64_t default_cover_ms);

// Inside append_check_result's transaction, before the summary is rewritten: rolls the time between the
// newest stored result (from `summary`) and the new one at `at_ms` into the day records, rebuilding the
// check's rollups from its raw results first when the summary predates rollups. Sets the summary's
// firstCheckedAtMs and rollupFromMs. Only for a result newer than the summary's.
// Also sets lastCoverMs. `result.coverMs` is the new result's cover; `default_cover_ms` the check's
// current one, for stored results without their own.
void roll_up(store::WriteTxn& txn, store::Table t, std::string_view check_id, json::object& summary,
             const core::status::Observation& result, std::int64_t default_cover_ms);

// Removes a check's day records (with its results, when the check is deleted).
void erase_rollups(store::WriteTxn& txn, store::Table t, std::string_view check_id);

// A check's time over UTC days [first_day, utc_day(now_ms)] as core::status::CheckTime: day records for
// most days, exact spans from the raw results of `exact_days`, the open tail after the newest result
// added to the days it reaches that are not exact. Falls back to load_check_time_raw for a check whose
// summary predates rollups. `check` is the stored check record, `summary` its summary (none: no result).
core::Result<core::status::CheckTime> load_check_time(App& app, const json::object& check,
                                                      const std::optional<json::object>& summary,
                                                      std::int64_t first_day,
                                                      std::span<const std::int64_t> exact_days,
                                                      std::int64_t now_ms);

// The same from the raw results alone, every day exact: the reference the rollups are tested against and
// the benchmark's "before".
core::Result<core::status::CheckTime> load_check_time_raw(App& app, const json::object& check,
                                                          const std::optional<json::object>& summary,
                                                          std::int64_t first_day, std::int64_t now_ms);

}  // namespace edge::status
