// Mail: analytics (spec document 2, "Limits": days = 7, 30 or 90; docs/mail-api.md, "Analytics") over HTTP:
// only those windows are accepted; the answer sums the day counters record_events writes over the window
// ending today (UTC), with every day listed (zeros included) and the derived rates; events from a real send
// are counted; permissions, other companies and path forms.

#include <doctest/doctest.h>

#include "core/date.h"
#include "edge/mail/mail_events.h"
#include "mail_support.h"

using testing::TestEdge;
using namespace mail_test;

TEST_SUITE_BEGIN("mail");

namespace {

const std::string kAnalytics = "/api/companies/acme/analytics";

struct AnalyticsEdge {
  TestEdge edge{config()};
  std::string token = edge.token_with("acme", kAllMail);
  std::string company_id = edge.server->app().accounts->company_by_slug("acme")->id;
  core::CivilDate today = core::civil_from_unix_ms(TestEdge::kStart).date;  // 2026-11-18

  static edge::Config config() { return unthrottled(); }

  std::string day(int offset) const { return core::format_day_key(core::add_days(today, offset)); }

  // Stores `n` events named `event` at noon UTC of today + `offset` days, as a delivery would.
  void record(int offset, const std::string& event, int n) {
    const std::int64_t at = core::unix_ms_from_civil({core::add_days(today, offset), 12, 0, 0});
    std::vector<edge::mail::MailEvent> events(
        n, edge::mail::MailEvent{event, "log_test", "a@example.net", "", at});
    auto& app = edge.server->app();
    REQUIRE(app.kv
                ->write([&](store::WriteTxn& txn) -> core::Status {
                  edge::mail::record_events(app, txn, company_id, events);
                  return {};
                })
                .ok());
  }

  json::object get(int days) {
    auto r = edge.get(kAnalytics + "?days=" + std::to_string(days), token);
    REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.data().as_object();
  }

  static std::int64_t total(const json::object& a, const char* event) {
    return a.at("totals").as_object().at(event).as_int64();
  }
};

}  // namespace

TEST_CASE("analytics: days must be 7, 30 or 90") {
  AnalyticsEdge t;
  const std::string refused = R"({"data":null,"error":"query parameter 'days' must be 7, 30 or 90"})";
  for (const char* q : {"", "?days=", "?days=0", "?days=8", "?days=365", "?days=07", "?days=7.0", "?days=-7",
                        "?days=seven", "?day=7"}) {
    auto r = t.edge.get(kAnalytics + q, t.token);
    CHECK_MESSAGE(r.status == 400, q);
    CHECK_MESSAGE(r.body == refused, q);
  }
  for (int days : {7, 30, 90}) {
    auto a = t.get(days);
    CHECK(a.at("days").as_int64() == days);
    CHECK(str(a, "to") == "2026-11-18");
    CHECK(str(a, "from") == t.day(1 - days));
    const auto& daily = a.at("daily").as_array();
    REQUIRE(daily.size() == static_cast<std::size_t>(days));
    CHECK(str(daily.front(), "date") == str(a, "from"));
    CHECK(str(daily.back(), "date") == "2026-11-18");
    // Nothing happened: every count is there, and zero; rates have nothing to divide.
    for (const auto& row : daily)
      for (const char* e : edge::mail::kMailEvents) CHECK(row.at(e).as_int64() == 0);
    for (const char* e : edge::mail::kMailEvents) CHECK(AnalyticsEdge::total(a, e) == 0);
    CHECK(a.at("rates").at("deliveryRate").is_null());
    CHECK(a.at("rates").at("bounceRate").is_null());
    CHECK(a.at("rates").at("complaintRate").is_null());
  }
}

TEST_CASE("analytics: totals, days and rates sum the counters inside the window only") {
  AnalyticsEdge t;
  t.record(0, "queued", 3);
  t.record(0, "sent", 2);
  t.record(0, "delivered", 2);
  t.record(0, "bounced", 1);
  t.record(0, "complained", 1);
  t.record(-6, "deferred", 1);  // the first day of the 7-day window
  t.record(-6, "delivered", 1);
  t.record(-7, "delivered", 5);    // just before it; inside the 30-day window
  t.record(-89, "suppressed", 1);  // the first day of the 90-day window
  t.record(-90, "bounced", 4);     // before every window

  auto week = t.get(7);
  CHECK(AnalyticsEdge::total(week, "queued") == 3);
  CHECK(AnalyticsEdge::total(week, "sent") == 2);
  CHECK(AnalyticsEdge::total(week, "delivered") == 3);
  CHECK(AnalyticsEdge::total(week, "deferred") == 1);
  CHECK(AnalyticsEdge::total(week, "bounced") == 1);
  CHECK(AnalyticsEdge::total(week, "complained") == 1);
  CHECK(AnalyticsEdge::total(week, "suppressed") == 0);
  const auto& daily = week.at("daily").as_array();
  CHECK(daily[0] == json::value(json::object{{"date", t.day(-6)},
                                             {"queued", 0},
                                             {"sent", 0},
                                             {"delivered", 1},
                                             {"deferred", 1},
                                             {"bounced", 0},
                                             {"complained", 0},
                                             {"suppressed", 0}}));
  CHECK(daily[6] == json::value(json::object{{"date", "2026-11-18"},
                                             {"queued", 3},
                                             {"sent", 2},
                                             {"delivered", 2},
                                             {"deferred", 0},
                                             {"bounced", 1},
                                             {"complained", 1},
                                             {"suppressed", 0}}));
  for (int i = 1; i < 6; ++i) CHECK(daily[i].at("delivered").as_int64() == 0);
  // delivered / (delivered + bounced), bounced / (delivered + bounced), complained / delivered.
  CHECK(week.at("rates") ==
        json::value(json::object{{"deliveryRate", 0.75}, {"bounceRate", 0.25}, {"complaintRate", 0.3333}}));

  auto month = t.get(30);
  CHECK(AnalyticsEdge::total(month, "delivered") == 8);
  CHECK(AnalyticsEdge::total(month, "bounced") == 1);
  CHECK(AnalyticsEdge::total(month, "suppressed") == 0);
  CHECK(
      month.at("rates") ==
      json::value(json::object{{"deliveryRate", 0.8889}, {"bounceRate", 0.1111}, {"complaintRate", 0.125}}));

  auto quarter = t.get(90);
  CHECK(AnalyticsEdge::total(quarter, "suppressed") == 1);
  CHECK(AnalyticsEdge::total(quarter, "bounced") == 1);
  CHECK(str(quarter.at("daily").as_array()[0], "date") == t.day(-89));
  CHECK(quarter.at("daily").as_array()[0].at("suppressed").as_int64() == 1);

  // The window follows the clock: a week later today's counts have left the 7-day window.
  t.edge.clock.advance_ms(7LL * 24 * 3600 * 1000);
  auto later = t.get(7);
  CHECK(str(later, "to") == "2026-11-25");
  CHECK(AnalyticsEdge::total(later, "queued") == 0);
}

TEST_CASE("analytics: a send is counted when it is accepted") {
  AnalyticsEdge t;
  const std::string domain = verified_domain(t.edge, t.token, "acme", "acme.example.test");
  REQUIRE(t.edge.post("/api/companies/acme/suppressions", R"({"address":"blocked@example.net"})", t.token)
              .status == 201);
  auto r = t.edge.post(
      "/api/mail/send",
      R"({"domainId":")" + domain +
          R"(","from":"hello@acme.example.test","to":["ali@example.net","blocked@example.net"],"subject":"s","text":"t"})",
      t.token);
  REQUIRE(r.status == 201);
  auto a = t.get(7);
  CHECK(AnalyticsEdge::total(a, "queued") == 1);      // one per send
  CHECK(AnalyticsEdge::total(a, "suppressed") == 1);  // one per skipped recipient
  CHECK(AnalyticsEdge::total(a, "delivered") == 0);
}

TEST_CASE("analytics: logs.view, other companies and path forms") {
  AnalyticsEdge t;
  t.record(0, "delivered", 2);
  const std::string viewer = t.edge.token_with("acme", {"logs.view"});
  CHECK(t.edge.get(kAnalytics + "?days=7", viewer).status == 200);
  const std::string other = t.edge.token_with("acme", {"webhooks.manage", "suppressions.manage"});
  auto denied = t.edge.get(kAnalytics + "?days=7", other);
  CHECK(denied.status == 403);
  CHECK(denied.body == R"({"data":null,"error":"access token lacks permission 'logs.view'"})");
  // The permission is checked before the query: a bad `days` without it is still 403.
  CHECK(t.edge.get("/api/mail/analytics?days=8", other).status == 403);

  CHECK(t.edge.get("/api/mail/analytics?days=7", t.token).data() ==
        t.edge.get(kAnalytics + "?days=7", t.token).data());
  CHECK(t.edge.get("/api/mail/companies/acme/analytics?days=30", t.token).status == 200);
  const std::string globex = t.edge.token_with("globex", kAllMail);
  CHECK(t.edge.get(kAnalytics + "?days=7", globex).status == 404);
  auto theirs = t.edge.get("/api/mail/analytics?days=7", globex);
  REQUIRE(theirs.status == 200);
  CHECK(AnalyticsEdge::total(theirs.data().as_object(), "delivered") == 0);
  CHECK(t.edge.get(kAnalytics + "?days=7").status == 401);
}

TEST_SUITE_END();
