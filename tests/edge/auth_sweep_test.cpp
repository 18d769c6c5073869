// The sweep of auth projects' expired records (edge/auth_projects/auth_sweep.h, docs/auth-projects.md,
// "Retention"): refresh tokens, ended sessions, links and tickets go a day after their time, found through
// the `ax/` expiry index; records of deleted users and projects leave only index entries, which the sweep
// drops. Outcomes are counted as keys of the auth table.

#include <doctest/doctest.h>

#include <regex>

#include "../native/smtp_sink.h"
#include "auth_support.h"
#include "edge/app.h"
#include "edge/auth_projects/auth_sweep.h"
#include "edge/auth_projects/end_users.h"
#include "edge/auth_projects/login_tickets.h"
#include "edge/auth_projects/project_store.h"
#include "edge/auth_projects/social_identities.h"
#include "mail_support.h"
#include "native/mail/mime_parse.h"

using testing::Reply;
using testing::TestEdge;
using namespace auth_test;
using edge::auth_projects::kAuthSweepBatch;
using edge::auth_projects::kAuthSweepGraceMs;

TEST_SUITE_BEGIN("auth_sweep");

namespace {

constexpr std::int64_t kMinute = 60'000, kHour = 60 * kMinute;
// The shortest refresh-token lifetime a project may set, so tests reach expiries in hours.
constexpr const char* kHourRefresh = R"("refreshTokenTtlSeconds":3600)";

// Keys of the auth table that start with `prefix` and contain `part`.
std::size_t count(TestEdge& edge, const std::string& prefix, const std::string& part = "") {
  std::size_t n = 0;
  auto& app = edge.server->app();
  REQUIRE(app.kv
              ->read([&](const store::ReadTxn& txn) -> core::Status {
                txn.scan(app.auth_table, prefix, [&](std::string_view k, std::string_view) {
                  if (k.find(part) != std::string_view::npos) ++n;
                  return true;
                });
                return {};
              })
              .ok());
  return n;
}

// Records of one kind ("rt", "srt", "s", "us", "lt", "tk", "slk") of project `p`.
std::size_t records(TestEdge& edge, const TestProject& p, const std::string& kind) {
  return count(edge, "p/" + p.id + "/" + kind + "/");
}

// Index entries naming records of `p`, of one kind when given.
std::size_t entries(TestEdge& edge, const TestProject& p, const std::string& kind = "") {
  return count(edge, "ax/", "/p/" + p.id + "/" + (kind.empty() ? "" : kind + "/"));
}

std::size_t sweep(TestEdge& edge, std::size_t max_items = 1000) {
  auto swept = edge::auth_projects::sweep_auth_records(edge.server->app(), max_items);
  REQUIRE(swept.ok());
  return *swept;
}

Reply refresh(TestEdge& edge, const TestProject& p, const std::string& token) {
  return call(edge, p, "/refresh", R"({"refreshToken":")" + token + R"("})");
}

Reply logout(TestEdge& edge, const TestProject& p, const std::string& token) {
  return call(edge, p, "/logout", R"({"refreshToken":")" + token + R"("})");
}

std::string user_id(const Reply& signed_in) {
  return str(signed_in.data().as_object().at("user"), "id");
}

}  // namespace

TEST_CASE("expired refresh tokens go a day after their expiry, a session with its last one; live ones stay") {
  TestEdge edge;
  auto p = make_project(edge, "sweep-tokens", kHourRefresh);
  auto ada = signup(edge, p, "ada@example.net");
  REQUIRE(ada.status == 201);
  edge.clock.advance_ms(30 * kMinute);
  auto rotated = refresh(edge, p, str(ada.data(), "refreshToken"));
  REQUIRE(rotated.status == 200);
  // r0 expires at start + 1 h, r1 (its successor) at start + 1 h 30.
  CHECK(records(edge, p, "rt") == 2);
  CHECK(entries(edge, p, "rt") == 2);

  // Exactly a day after r0's expiry nothing is due yet.
  edge.clock.advance_ms(30 * kMinute + kAuthSweepGraceMs);
  CHECK(sweep(edge) == 0);
  CHECK(records(edge, p, "rt") == 2);

  // A millisecond later r0 goes, with its session entry; its session keeps r1.
  edge.clock.advance_ms(1);
  auto bob = signup(edge, p, "bob@example.net");
  REQUIRE(bob.status == 201);
  CHECK(sweep(edge) == 1);
  CHECK(records(edge, p, "rt") == 2);  // r1 and bob's
  CHECK(records(edge, p, "srt") == 2);
  CHECK(records(edge, p, "s") == 2);
  CHECK(records(edge, p, "us") == 2);
  CHECK(entries(edge, p) == 2);

  // When r1 is due, ada's session has no token left: it goes with its user index entry.
  edge.clock.advance_ms(30 * kMinute);
  CHECK(sweep(edge) == 1);
  CHECK(records(edge, p, "rt") == 1);
  CHECK(records(edge, p, "srt") == 1);
  CHECK(records(edge, p, "s") == 1);
  CHECK(records(edge, p, "us") == 1);
  CHECK(count(edge, "p/" + p.id + "/us/" + user_id(ada) + "/") == 0);
  CHECK(entries(edge, p) == 1);
  CHECK(count(edge, "p/" + p.id + "/u/") == 2);  // the users themselves stay

  // Bob's session was never touched.
  CHECK(refresh(edge, p, str(bob.data(), "refreshToken")).status == 200);
  CHECK(sweep(edge) == 0);
}

TEST_CASE("a rotated token replayed within the grace still ends its session; the session goes a day later") {
  TestEdge edge;
  auto p = make_project(edge, "sweep-replay", kHourRefresh);
  auto up = signup(edge, p, "eve@example.net");
  REQUIRE(up.status == 201);
  const std::string r0 = str(up.data(), "refreshToken");
  edge.clock.advance_ms(59 * kMinute);
  auto rotated = refresh(edge, p, r0);
  REQUIRE(rotated.status == 200);
  const std::string r1 = str(rotated.data(), "refreshToken");

  // Half an hour later r0 has expired (r1 lives on); a sweep keeps it for the grace.
  edge.clock.advance_ms(31 * kMinute);
  CHECK(sweep(edge) == 0);
  auto replay = refresh(edge, p, r0);
  CHECK(replay.status == 401);
  CHECK(replay.error() == "this refresh token was already used; the session is revoked");
  CHECK(refresh(edge, p, r1).status == 401);
  CHECK(entries(edge, p, "s") == 1);

  // A day after the revocation: r0 (due since start + 1 h + a day) is gone, the ended session is kept.
  edge.clock.advance_ms(kAuthSweepGraceMs);
  CHECK(sweep(edge) == 1);
  CHECK(records(edge, p, "rt") == 1);
  CHECK(records(edge, p, "s") == 1);
  // A millisecond later the session goes with its user index entry and r1, which still had time left.
  edge.clock.advance_ms(1);
  CHECK(sweep(edge) == 1);
  CHECK(records(edge, p, "s") == 0);
  CHECK(records(edge, p, "us") == 0);
  CHECK(records(edge, p, "rt") == 0);
  CHECK(records(edge, p, "srt") == 0);
  // r1's own entry outlives its record until its time, then goes alone.
  CHECK(entries(edge, p) == 1);
  CHECK(refresh(edge, p, r1).error() == "the refresh token is invalid, expired or revoked");
  edge.clock.advance_ms(30 * kMinute);
  CHECK(sweep(edge) == 1);
  CHECK(entries(edge, p) == 0);
}

TEST_CASE("sessions ended by logout or by the dashboard go a day later with tokens that had a month left") {
  TestEdge edge;
  auto p = make_project(edge, "sweep-logout");  // refresh tokens live 30 days
  auto out = signup(edge, p, "out@example.net");
  auto ended = signup(edge, p, "ended@example.net");
  auto stays = signup(edge, p, "stays@example.net");
  REQUIRE(out.status == 201);
  REQUIRE(ended.status == 201);
  REQUIRE(stays.status == 201);
  REQUIRE(logout(edge, p, str(out.data(), "refreshToken")).status == 200);
  REQUIRE(edge.del(p.base + "/users/" + user_id(ended) + "/sessions", p.key).status == 200);
  CHECK(entries(edge, p, "s") == 2);

  edge.clock.advance_ms(kAuthSweepGraceMs);
  CHECK(sweep(edge) == 0);
  CHECK(records(edge, p, "s") == 3);
  edge.clock.advance_ms(1);
  CHECK(sweep(edge) == 2);
  CHECK(records(edge, p, "s") == 1);
  CHECK(records(edge, p, "us") == 1);
  CHECK(records(edge, p, "rt") == 1);
  CHECK(records(edge, p, "srt") == 1);
  CHECK(entries(edge, p, "rt") == 3);  // the tokens' own entries, due in a month
  CHECK(refresh(edge, p, str(stays.data(), "refreshToken")).status == 200);
}

TEST_CASE("login tickets and social link tickets, used or abandoned, go a day after they expire") {
  TestEdge edge;
  auto p = make_project(edge, "sweep-tickets");
  REQUIRE(signup(edge, p, "cy@example.net").status == 201);
  auto& app = edge.server->app();
  auto project = edge::auth_projects::project_by_slug(app, p.slug);
  REQUIRE(project.ok());
  auto user = edge::auth_projects::find_user_by_email(app, p.id, "cy@example.net");
  REQUIRE(user.ok());
  REQUIRE(user->has_value());
  auto used = edge::auth_projects::issue_login_ticket(app, *project, **user, "pwd");
  REQUIRE(used.ok());
  REQUIRE(*edge::auth_projects::use_login_ticket(app, *project, *used));
  REQUIRE(edge::auth_projects::issue_login_ticket(app, *project, **user, "pwd").ok());
  // A provider identity with cy's address: linking it waits for a ticket cy never confirms.
  auto linking = edge::auth_projects::resolve_identity(
      app, *project,
      edge::auth_projects::ProviderIdentity{"idp_sweep", "sub-1", "cy@example.net", "Cy", true});
  REQUIRE(linking.ok());
  REQUIRE(linking->kind == edge::auth_projects::SocialOutcome::Kind::link_required);
  CHECK(records(edge, p, "tk") == 2);
  CHECK(records(edge, p, "slk") == 1);
  CHECK(entries(edge, p, "tk") == 2);
  CHECK(entries(edge, p, "slk") == 1);

  // Login tickets live five minutes, link tickets ten.
  edge.clock.advance_ms(5 * kMinute + kAuthSweepGraceMs);
  CHECK(sweep(edge) == 0);
  edge.clock.advance_ms(1);
  CHECK(sweep(edge) == 2);
  CHECK(records(edge, p, "tk") == 0);
  CHECK(records(edge, p, "slk") == 1);
  edge.clock.advance_ms(5 * kMinute);
  CHECK(sweep(edge) == 1);
  CHECK(records(edge, p, "slk") == 0);
  CHECK(entries(edge, p) == 1);  // cy's refresh token, due in a month
  CHECK(records(edge, p, "rt") == 1);
}

TEST_CASE("used and expired link tokens go a day after they expire") {
  auto sink_failure = std::string();
  auto sink = test_smtp::SmtpSink::start({}, sink_failure);
  REQUIRE_MESSAGE(sink, sink_failure);
  edge::Config c;
  c.rate_limit = {1'000'000, 1000};
  c.mail.relay = "127.0.0.1:" + std::to_string(sink->port());
  c.mail.delivery_workers = 1;
  c.mail.smtp_timeout_ms = 10'000;
  TestEdge edge(c);
  const std::string domain = mail_test::verified_domain(edge, edge.token_with("acme", mail_test::kAllMail),
                                                        "acme", "acme.example.test");
  auto p = make_project(edge, "sweep-links",
                        R"("allowedRedirectUrls":["https://app.example.com/auth"],)"
                        R"("mail":{"domainId":")" +
                            domain + R"(","from":"no-reply@acme.example.test"})");
  auto link_token = [&](std::size_t n) {
    auto got = sink->wait_for(n + 1, std::chrono::seconds(20));
    REQUIRE(got.size() > n);
    auto parsed = native::mail::parse_mime(got[n].data);
    REQUIRE(parsed.ok());
    std::smatch m;
    REQUIRE(std::regex_search(parsed->text, m, std::regex(R"(token=(apl_[A-Za-z0-9_-]+))")));
    return m.str(1);
  };

  // The verification link (24 hours) is used; the reset link (an hour) is left.
  REQUIRE(signup(edge, p, "lin@example.net").status == 201);
  REQUIRE(call(edge, p, "/verify-email", R"({"token":")" + link_token(0) + R"("})").status == 200);
  REQUIRE(call(edge, p, "/password-reset/request", R"({"email":"lin@example.net"})").status == 202);
  link_token(1);
  CHECK(records(edge, p, "lt") == 2);
  CHECK(entries(edge, p, "lt") == 2);

  edge.clock.advance_ms(kHour + kAuthSweepGraceMs);
  CHECK(sweep(edge) == 0);
  edge.clock.advance_ms(1);
  CHECK(sweep(edge) == 1);
  CHECK(records(edge, p, "lt") == 1);
  CHECK(entries(edge, p, "lt") == 1);
  edge.clock.advance_ms(23 * kHour);
  CHECK(sweep(edge) == 1);
  CHECK(records(edge, p, "lt") == 0);
  CHECK(entries(edge, p, "lt") == 0);
}

TEST_CASE("records of a deleted project or user leave index entries that the sweep drops when due") {
  TestEdge edge;
  auto gone = make_project(edge, "sweep-gone", kHourRefresh);
  auto kept = make_project(edge, "sweep-kept", kHourRefresh);
  auto a = signup(edge, gone, "a@example.net");
  auto b = signup(edge, gone, "b@example.net");
  REQUIRE(a.status == 201);
  REQUIRE(b.status == 201);
  REQUIRE(refresh(edge, gone, str(a.data(), "refreshToken")).status == 200);
  REQUIRE(logout(edge, gone, str(b.data(), "refreshToken")).status == 200);
  auto c = signup(edge, kept, "c@example.net");
  REQUIRE(c.status == 201);
  REQUIRE(edge.del("/api/companies/acme/auth-projects/" + kept.id + "/users/" + user_id(c), kept.manager)
              .status == 200);
  REQUIRE(edge.del("/api/companies/acme/auth-projects/" + gone.id, gone.manager).status == 200);
  CHECK(count(edge, "p/" + gone.id + "/") == 0);
  CHECK(records(edge, kept, "rt") == 0);
  CHECK(entries(edge, gone) == 4);  // a's two tokens, b's token and b's ended session
  CHECK(entries(edge, kept) == 1);  // c's token

  edge.clock.advance_ms(kHour + kAuthSweepGraceMs + 1);
  auto d = signup(edge, kept, "d@example.net");  // not due
  REQUIRE(d.status == 201);
  CHECK(sweep(edge) == 5);
  CHECK(entries(edge, gone) == 0);
  CHECK(count(edge, "ax/") == 1);
  CHECK(entries(edge, kept, "rt") == 1);
  CHECK(records(edge, kept, "rt") == 1);
  CHECK(refresh(edge, kept, str(d.data(), "refreshToken")).status == 200);
}

TEST_CASE("a sweep works in batches and stops after max_items; the next one goes on") {
  TestEdge edge;
  auto p = make_project(edge, "sweep-batches");
  REQUIRE(signup(edge, p, "many@example.net").status == 201);
  auto& app = edge.server->app();
  auto project = edge::auth_projects::project_by_slug(app, p.slug);
  REQUIRE(project.ok());
  auto user = edge::auth_projects::find_user_by_email(app, p.id, "many@example.net");
  REQUIRE(user.ok());
  REQUIRE(user->has_value());
  constexpr std::size_t kTickets = 2 * kAuthSweepBatch + 30;  // three batches
  for (std::size_t i = 0; i < kTickets; ++i)
    REQUIRE(edge::auth_projects::issue_login_ticket(app, *project, **user, "pwd").ok());

  edge.clock.advance_ms(5 * kMinute + kAuthSweepGraceMs + 1);
  CHECK(sweep(edge, 150) == 150);
  CHECK(records(edge, p, "tk") == kTickets - 150);
  CHECK(sweep(edge) == kTickets - 150);
  CHECK(sweep(edge) == 0);
  CHECK(records(edge, p, "tk") == 0);
  CHECK(entries(edge, p) == 1);  // the session's refresh token
}

TEST_SUITE_END();
