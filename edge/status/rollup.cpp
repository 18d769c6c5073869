#include "edge/status/rollup.h"

#include <algorithm>
#include <cstdio>

#include "core/date.h"
#include "edge/app.h"
#include "edge/platform/record_json.h"
#include "edge/status/status_store.h"

namespace edge::status {
namespace {

namespace cs = core::status;

constexpr std::int64_t kDayMs = cs::kDayMs;

std::string day_text(std::int64_t utc_day) {
  return core::format_day_key(core::civil_from_days(utc_day));
}

void add_to(json::object& rec, const cs::StateTime& t) {
  rec["operationalMs"] = record::num(rec, "operationalMs") + t.operationalMs;
  rec["degradedMs"] = record::num(rec, "degradedMs") + t.degradedMs;
  rec["downMs"] = record::num(rec, "downMs") + t.downMs;
  rec["unknownMs"] = record::num(rec, "unknownMs") + t.unknownMs;
}

cs::StateTime time_of(const json::object& rec) {
  cs::StateTime t;
  t.operationalMs = record::num(rec, "operationalMs");
  t.degradedMs = record::num(rec, "degradedMs");
  t.downMs = record::num(rec, "downMs");
  t.unknownMs = record::num(rec, "unknownMs");
  return t;
}

// Adds `spans` to the day records, and one result of `counted` (when set) to its day.
void add_spans(store::WriteTxn& txn, store::Table t, std::string_view check_id,
               std::span<const cs::Span> spans, const std::optional<cs::Observation>& counted) {
  std::vector<cs::DayTime> days = cs::time_by_utc_day(spans);
  if (counted) {
    const std::int64_t day = cs::utc_day(counted->atMs);
    if (std::none_of(days.begin(), days.end(), [day](const cs::DayTime& d) { return d.day == day; }))
      days.push_back({day, {}});
  }
  for (const cs::DayTime& d : days) {
    const std::string key = rollup_key(check_id, d.day);
    json::object rec = record::get_object(txn, t, key).value_or(json::object{});
    add_to(rec, d.time);
    if (counted && cs::utc_day(counted->atMs) == d.day) {
      rec["results"] = record::num(rec, "results") + 1;
      rec["downResults"] =
          record::num(rec, "downResults") + (counted->status == cs::ProbeStatus::down ? 1 : 0);
    }
    record::put_object(txn, t, key, rec);
  }
}

// Results of a check with atMs in [from_ms, to_ms), oldest first, through any transaction.
std::vector<cs::Observation> read_observations(const store::ReadTxn& txn, store::Table t,
                                               std::string_view check_id, std::int64_t from_ms,
                                               std::int64_t to_ms, std::int64_t default_cover_ms) {
  std::vector<cs::Observation> out;
  const std::string prefix = result_prefix(check_id);
  const std::string start = from_ms > 0 ? result_key(check_id, from_ms - 1) : std::string();
  txn.scan(
      t, prefix,
      [&](std::string_view, std::string_view value) {
        auto rec = core::parse_json_object(value);
        if (!rec) return true;
        auto o = observation_of(*rec, default_cover_ms);
        if (!o) return true;
        if (o->atMs >= to_ms) return false;
        if (o->atMs >= from_ms) out.push_back(*o);
        return true;
      },
      start);
  return out;
}

std::optional<cs::Observation> newest(const json::object& summary, std::int64_t default_cover_ms) {
  auto at = record::opt_num(summary, "lastCheckedAtMs");
  auto status = cs::parse_check_status(record::str(summary, "status"));
  if (!at || !status || *status == cs::CheckStatus::no_data) return std::nullopt;
  cs::ProbeStatus s = *status == cs::CheckStatus::down       ? cs::ProbeStatus::down
                      : *status == cs::CheckStatus::degraded ? cs::ProbeStatus::degraded
                                                             : cs::ProbeStatus::operational;
  return cs::Observation{*at, s, record::opt_num(summary, "lastCoverMs").value_or(default_cover_ms)};
}

// Rebuilds every day record of a check from its raw results (rollups did not exist when they were
// stored): the finalized time up to `until_ms`, every result counted.
void rebuild(store::WriteTxn& txn, store::Table t, std::string_view check_id, json::object& summary,
             std::int64_t until_ms, std::int64_t default_cover_ms) {
  erase_rollups(txn, t, check_id);
  auto all = read_observations(txn, t, check_id, 0, INT64_MAX, default_cover_ms);
  if (all.empty()) return;
  auto spans = cs::check_timeline(all, all.front().atMs, all.front().atMs, until_ms);
  add_spans(txn, t, check_id, spans, std::nullopt);
  for (const cs::Observation& o : all) add_spans(txn, t, check_id, {}, o);
  summary["firstCheckedAtMs"] = all.front().atMs;
  summary["rollupFromMs"] = all.front().atMs;
}

}  // namespace

std::string rollup_prefix(std::string_view check_id) {
  return "ru/" + std::string(check_id) + "/";
}

std::string rollup_key(std::string_view check_id, std::int64_t utc_day) {
  return rollup_prefix(check_id) + day_text(utc_day);
}

void erase_rollups(store::WriteTxn& txn, store::Table t, std::string_view check_id) {
  std::vector<std::string> keys;
  txn.scan(t, rollup_prefix(check_id), [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  for (auto& k : keys) txn.erase(t, k);
}

std::int64_t check_cover_ms(const json::object& check) {
  return cs::result_cover_ms(record::num(check, "intervalSeconds") * 1000, record::num(check, "timeoutMs"));
}

std::optional<cs::Observation> observation_of(const json::object& result, std::int64_t default_cover_ms) {
  auto status = cs::parse_check_status(record::str(result, "status"));
  if (!status || *status == cs::CheckStatus::no_data) return std::nullopt;
  cs::ProbeStatus s = *status == cs::CheckStatus::down       ? cs::ProbeStatus::down
                      : *status == cs::CheckStatus::degraded ? cs::ProbeStatus::degraded
                                                             : cs::ProbeStatus::operational;
  return cs::Observation{record::num(result, "at"), s,
                         record::opt_num(result, "coverMs").value_or(default_cover_ms)};
}

void roll_up(store::WriteTxn& txn, store::Table t, std::string_view check_id, json::object& summary,
             const cs::Observation& result, std::int64_t default_cover_ms) {
  if (summary.empty()) {  // the check's first result
    summary["firstCheckedAtMs"] = result.atMs;
    summary["rollupFromMs"] = result.atMs;
    add_spans(txn, t, check_id, {}, result);
  } else if (!summary.contains("rollupFromMs")) {
    rebuild(txn, t, check_id, summary, result.atMs, default_cover_ms);
  } else if (auto previous = newest(summary, default_cover_ms)) {
    auto spans = cs::spans_between(*previous, result.atMs);
    // A result at the newest one's millisecond replaces it (same key): not counted twice.
    add_spans(txn, t, check_id, spans,
              previous->atMs == result.atMs ? std::nullopt : std::optional<cs::Observation>(result));
  }
  summary["lastCoverMs"] = result.coverMs;
}

core::Result<cs::CheckTime> load_check_time(App& app, const json::object& check,
                                            const std::optional<json::object>& summary,
                                            std::int64_t first_day, std::span<const std::int64_t> exact_days,
                                            std::int64_t now_ms) {
  if (summary && !summary->contains("rollupFromMs"))
    return load_check_time_raw(app, check, summary, first_day, now_ms);
  cs::CheckTime out;
  out.exactDays.assign(exact_days.begin(), exact_days.end());
  if (!summary) return out;  // never probed: no time at all
  const std::string id = record::str(check, "id");
  const std::int64_t cover = check_cover_ms(check);
  const std::int64_t since = record::num(*summary, "firstCheckedAtMs");
  const std::int64_t today = cs::utc_day(now_ms);
  store::Table t = app.status_table;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    out.days.clear();
    out.spans.clear();
    txn.scan(
        t, rollup_prefix(id),
        [&](std::string_view key, std::string_view value) {
          auto date = core::parse_day_key(key.substr(key.rfind('/') + 1));
          auto rec = core::parse_json_object(value);
          if (!date || !rec) return true;
          const std::int64_t day = core::days_from_civil(*date);
          if (day > today) return false;
          if (!std::binary_search(out.exactDays.begin(), out.exactDays.end(), day))
            out.days.push_back({day, time_of(*rec)});
          return true;
        },
        rollup_key(id, first_day - 1));
    // Exact days, a run of consecutive days at a time.
    for (std::size_t i = 0; i < out.exactDays.size();) {
      std::size_t j = i;
      while (j + 1 < out.exactDays.size() && out.exactDays[j + 1] == out.exactDays[j] + 1) ++j;
      const std::int64_t from = out.exactDays[i] * kDayMs;
      const std::int64_t to = std::min((out.exactDays[j] + 1) * kDayMs, now_ms);
      if (from < to) {
        auto obs = read_observations(txn, t, id, from - cs::kMaxCoverMs, to, cover);
        auto spans = cs::check_timeline(obs, since, from, to);
        out.spans.insert(out.spans.end(), spans.begin(), spans.end());
      }
      i = j + 1;
    }
    return {};
  });
  if (!st.ok()) return st.error();
  // The open tail after the newest result, on the days not read exactly.
  if (auto last = newest(*summary, cover); last && last->atMs < now_ms) {
    auto tail = cs::spans_between(*last, now_ms);
    for (const cs::DayTime& d : cs::time_by_utc_day(tail)) {
      if (d.day < first_day || std::binary_search(out.exactDays.begin(), out.exactDays.end(), d.day))
        continue;
      auto it = std::find_if(out.days.begin(), out.days.end(),
                             [&](const cs::DayTime& x) { return x.day == d.day; });
      if (it == out.days.end())
        out.days.push_back(d);
      else
        it->time += d.time;
    }
  }
  return out;
}

core::Result<cs::CheckTime> load_check_time_raw(App& app, const json::object& check,
                                                const std::optional<json::object>& summary,
                                                std::int64_t first_day, std::int64_t now_ms) {
  cs::CheckTime out;
  for (std::int64_t d = first_day; d <= cs::utc_day(now_ms); ++d) out.exactDays.push_back(d);
  if (!summary) return out;
  const std::string id = record::str(check, "id");
  const std::int64_t cover = check_cover_ms(check);
  const std::int64_t from = first_day * kDayMs;
  store::Table t = app.status_table;
  std::vector<cs::Observation> obs;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    obs = read_observations(txn, t, id, from - cs::kMaxCoverMs, now_ms, cover);
    return {};
  });
  if (!st.ok()) return st.error();
  // A summary from before rollups has no firstCheckedAtMs: the first result read stands in.
  auto since = record::opt_num(*summary, "firstCheckedAtMs");
  if (!since && !obs.empty()) since = obs.front().atMs;
  out.spans = cs::check_timeline(obs, since.value_or(now_ms), from, now_ms);
  return out;
}

}  // namespace edge::status
