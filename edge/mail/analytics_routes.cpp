// Mail: analytics (spec document 2, "Mail: suppressions, webhooks, logs, analytics", "Limits";
// docs/mail-api.md, "Analytics"). Permission: logs.view.
//
// GET /analytics?days=7|30|90 sums the day counters record_events writes (`c/<cid>/stat/<day>/<event>`) over
// the last `days` UTC days, today included: totals, every day of the window (zeros included) and rates. The
// read is days x 7 point lookups, bounded, so it runs on the I/O thread.

#include <charconv>
#include <cmath>

#include "core/date.h"
#include "edge/app.h"
#include "edge/mail/mail_events.h"
#include "edge/mail/mail_routes.h"
#include "edge/mail/mail_store.h"
#include "edge/platform/envelope.h"

namespace edge::mail {
namespace {

// part / whole to four decimals, or null when nothing was counted in `whole`.
json::value rate(std::int64_t part, std::int64_t whole) {
  if (whole <= 0) return nullptr;
  return std::round(static_cast<double>(part) / static_cast<double>(whole) * 10000.0) / 10000.0;
}

std::int64_t count_of(const json::object& counts, const char* event) {
  auto* v = counts.if_contains(event);
  return v && v->is_int64() ? v->get_int64() : 0;
}

Response analytics(App& app, Request& req, const MailContext& ctx) {
  const auto days_text = req.query_param("days");
  int days = 0;
  if (days_text == "7" || days_text == "30" || days_text == "90") days = std::stoi(*days_text);
  if (days == 0) return envelope_error(400, "query parameter 'days' must be 7, 30 or 90");

  const core::CivilDate today = core::civil_from_unix_ms(app.clock.now_ms()).date;
  const core::CivilDate first = core::add_days(today, 1 - days);
  json::object totals;
  for (const char* e : kMailEvents) totals[e] = 0;
  json::array daily;
  auto st = app.kv->read([&](const store::ReadTxn& txn) -> core::Status {
    daily.clear();
    for (const char* e : kMailEvents) totals[e] = 0;
    for (int i = 0; i < days; ++i) {
      const std::string day = core::format_day_key(core::add_days(first, i));
      json::object row{{"date", day}};
      for (const char* e : kMailEvents) {
        std::int64_t n = 0;
        if (auto raw = txn.get(app.mail_table, stat_key(ctx.co().id, day, e)))
          std::from_chars(raw->data(), raw->data() + raw->size(), n);
        row[e] = n;
        totals[e] = totals[e].get_int64() + n;
      }
      daily.emplace_back(std::move(row));
    }
    return {};
  });
  if (!st.ok()) return envelope_error(st.error());

  const std::int64_t delivered = count_of(totals, "delivered"), bounced = count_of(totals, "bounced"),
                     complained = count_of(totals, "complained");
  json::object rates{{"deliveryRate", rate(delivered, delivered + bounced)},
                     {"bounceRate", rate(bounced, delivered + bounced)},
                     {"complaintRate", rate(complained, delivered)}};
  return envelope_ok(json::object{{"days", days},
                                  {"from", core::format_day_key(first)},
                                  {"to", core::format_day_key(today)},
                                  {"totals", std::move(totals)},
                                  {"rates", std::move(rates)},
                                  {"daily", std::move(daily)}});
}

}  // namespace

void register_analytics_routes(App& app) {
  add_mail_route(app, "GET", "/analytics", "logs.view",
                 [&app](Request& req, const MailContext& ctx) { return analytics(app, req, ctx); }, {},
                 {.nonblocking = true});
}

}  // namespace edge::mail
